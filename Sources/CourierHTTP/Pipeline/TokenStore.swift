import Foundation
import Synchronization

/// A bearer token and the token that renews it.
public struct Credentials: Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String?
    public init(accessToken: String, refreshToken: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// Holds the credentials and the one refresh in flight, so concurrent 401s share a single refresh.
public actor TokenStore {
    public private(set) var credentials: Credentials? {
        didSet { let token = credentials?.accessToken; current.withLock { $0 = token } }
    }
    /// A copy of the access token readable without hopping onto the actor, so attaching the token
    /// to every request costs no actor switch. Written only from the actor, on every change.
    private nonisolated let current: Mutex<String?>
    private var refreshing: Task<Credentials, any Error>?
    /// How many refreshes were started (not joined), for tests and the log.
    public private(set) var refreshCount = 0

    public init(credentials: Credentials? = nil) {
        self.credentials = credentials
        self.current = Mutex(credentials?.accessToken)
    }

    /// The token to attach, or nil when signed out.
    public nonisolated var accessToken: String? { current.withLock { $0 } }

    public var isSignedIn: Bool { credentials != nil }

    /// Replaces the credentials (after a login).
    public func signIn(_ credentials: Credentials) { self.credentials = credentials }

    /// Forgets the credentials.
    public func signOut() { credentials = nil }

    /// Credentials newer than `staleToken`: already renewed by another caller, the refresh in flight,
    /// or a new refresh. A refresh refused with `.unauthorized` signs out.
    public func renew(replacing staleToken: String,
                      using refresh: @escaping @Sendable (Credentials) async throws -> Credentials)
        async throws -> Credentials {
        if let current = credentials, current.accessToken != staleToken { return current }
        if let refreshing { return try await refreshing.value }
        guard let current = credentials else { throw APIError.unauthorized(body: Data()) }
        // Not a child task: one caller's cancellation must not fail the refresh the others share.
        let task = Task { try await refresh(current) }
        refreshing = task
        refreshCount += 1
        defer { refreshing = nil }
        do {
            let renewed = try await task.value
            credentials = renewed
            return renewed
        } catch let error as APIError {
            if case .unauthorized = error { credentials = nil }
            throw error
        }
    }
}

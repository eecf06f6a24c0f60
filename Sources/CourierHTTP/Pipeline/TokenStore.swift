import Foundation
import Synchronization

/// A bearer token, the token that renews it, and what came with them (an OpenID Connect id token, the
/// expiry).
public struct Credentials: Sendable, Hashable, Codable {
    public var accessToken: String
    public var refreshToken: String?
    /// The OpenID Connect id token, when the server sent one.
    public var idToken: String?
    /// When the access token stops working, from `expires_in`; nil when the server did not say.
    public var expiresAt: Date?
    public init(accessToken: String, refreshToken: String? = nil, idToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresAt = expiresAt
    }

    /// Whether the token is still good at `now`, with `margin` to spare for the request's way there.
    public func isUsable(at now: Date, margin: TimeInterval = 30) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(now) > margin
    }

    /// Every token value, masked wherever it appears.
    public var secrets: Set<String> { Set([accessToken, refreshToken, idToken].compactMap { $0 }) }
}

/// Holds the credentials and the one refresh in flight, so concurrent 401s share a single refresh.
public actor TokenStore {
    public private(set) var credentials: Credentials? {
        didSet { let token = credentials?.accessToken; current.withLock { $0 = token } }
    }
    /// A copy of the access token readable without hopping onto the actor, so attaching the token
    /// to every request costs no actor switch. Written only from the actor, on every change.
    private nonisolated let current: Mutex<String?>
    /// The refresh in flight; a Result, so its failure stays an `APIError` for every caller that joins it.
    private var refreshing: Task<Result<Credentials, APIError>, Never>?
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

    /// The credentials when they are good at `now`; else `acquire` (given the stale credentials, to refresh
    /// them) runs once for every caller at the time, and its answer is kept. `fresh` says whether this call
    /// waited for an acquisition (the log tells a reused token from a fetched one).
    public func usable(at now: Date,
                       acquire: @escaping @Sendable (Credentials?) async throws(APIError) -> Credentials)
        async throws(APIError) -> (credentials: Credentials, fresh: Bool) {
        if let current = credentials, current.isUsable(at: now) { return (current, false) }
        if let refreshing { return (try await refreshing.value.get(), true) }
        let stale = credentials
        let task = Task { () async -> Result<Credentials, APIError> in
            do throws(APIError) { return .success(try await acquire(stale)) } catch { return .failure(error) }
        }
        refreshing = task
        refreshCount += 1
        defer { refreshing = nil }
        do {
            let obtained = try await task.value.get()
            credentials = obtained
            return (obtained, true)
        } catch {
            credentials = nil
            throw error
        }
    }

    /// Credentials newer than `staleToken`: already renewed by another caller, the refresh in flight,
    /// or a new refresh. A refresh refused with `.unauthorized` signs out.
    public func renew(replacing staleToken: String,
                      using refresh: @escaping @Sendable (Credentials) async throws(APIError) -> Credentials)
        async throws(APIError) -> Credentials {
        if let current = credentials, current.accessToken != staleToken { return current }
        if let refreshing { return try await refreshing.value.get() }
        guard let current = credentials else { throw APIError.unauthorized(body: Data()) }
        // Not a child task: one caller's cancellation must not fail the refresh the others share.
        let task = Task { () async -> Result<Credentials, APIError> in
            do throws(APIError) { return .success(try await refresh(current)) } catch { return .failure(error) }
        }
        refreshing = task
        refreshCount += 1
        defer { refreshing = nil }
        do {
            let renewed = try await task.value.get()
            credentials = renewed
            return renewed
        } catch {
            if case .unauthorized = error { credentials = nil }
            throw error
        }
    }
}

import CourierCollections
import CourierHTTP
import CourierMessage
import Foundation

/// One attempt of one request, as the log shows it. Headers are stored already redacted, so the log
/// never holds a secret.
public struct LogAttempt: Sendable, Hashable, Identifiable {
    /// Which attempt of which request: the log's row identity.
    public struct Key: Sendable, Hashable {
        public var request: RequestID
        public var attempt: Int
        public init(request: RequestID, attempt: Int) {
            self.request = request
            self.attempt = attempt
        }
    }

    /// How the attempt ended, as far as the log knows.
    public enum Outcome: Sendable, Hashable {
        case inFlight
        case response(status: Int, headers: HTTPHeaders)
        /// A transport or protocol failure: the error kind and its description with the cause.
        case failure(kind: APIError.Kind, message: String)
        /// Cancelled by the user, or superseded by a newer request: never a failure.
        case cancelled(superseded: Bool)
    }

    /// The retry the policy scheduled after this attempt, and what became of it.
    public struct Retry: Sendable, Hashable {
        public enum Status: Sendable, Hashable { case waiting, done, cancelled }
        public var reason: String
        public var delay: Duration
        public var scheduledAt: Date
        public var status: Status

        /// What is left of the wait at `now` (zero once it has run out).
        public func remaining(at now: Date) -> Duration {
            let elapsed = Duration.milliseconds(Int64((now.timeIntervalSince(scheduledAt) * 1000).rounded()))
            return max(.zero, delay - elapsed)
        }
    }

    public var key: Key
    public var id: Key { key }
    public var method: String
    public var url: URL
    public var requestHeaders: HTTPHeaders
    public var started: Date
    public var outcome: Outcome = .inFlight
    public var timing: Timing?
    public var retry: Retry?
    /// Why the retry policy did not send this failed attempt again (a POST, a kind a retry cannot
    /// help, the attempts spent, a long Retry-After, the deadline).
    public var declined: String?
    /// What the request's scripts did, on its last attempt: tests, log lines, an error.
    public var scripts: ScriptReport?
    public var cache: CacheReport?
    /// Answered by the HTTP cache while fresh: no request reached the network, so there is no attempt.
    public var fromCache = false
    /// The auth middleware refreshed the token during this attempt (true) or failed to (false).
    public var tokenRefreshed: Bool?
    /// What the OAuth 2.0 middleware did about the request's token before this attempt (`token 'sso'
    /// reused (expires in 52 min)`), or what the user was asked to do.
    public var auth: [String] = []

    /// The path and query, which is what the log has room for.
    public var path: String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    /// Whether the errors-only filter keeps it: HTTP ≥ 400 or a failure; cancellations are not errors.
    public var isError: Bool {
        switch outcome {
        case .response(let status, _): status >= 400
        case .failure: true
        case .inFlight, .cancelled: false
        }
    }

    /// Cancelled or superseded: drawn greyed.
    public var isCancelled: Bool {
        if case .cancelled = outcome { return true }
        return false
    }
}

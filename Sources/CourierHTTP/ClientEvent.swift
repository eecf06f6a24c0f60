import CourierMessage
import Foundation

/// What the client core publishes while it works. Observers (the log pane, history, `--timing`)
/// watch these; they can never change a request.
public enum ClientEvent: Sendable {
    /// An attempt is about to reach the transport.
    case attemptStarted(RequestID, attempt: Int, method: HTTPMethod, url: URL, headers: HTTPHeaders, at: Date)
    /// An attempt ended with a response or an error, with its timing when the transport measured one.
    case attemptFinished(RequestID, attempt: Int, outcome: AttemptOutcome, timing: Timing?)
    /// The retry policy will send the request again after `delay`.
    case retryScheduled(RequestID, attempt: Int, reason: String, delay: Duration)
    /// The retry policy handed a failed attempt back to the caller, and why (a POST, an error kind a
    /// retry cannot help, the attempts spent, a long Retry-After, the deadline).
    case retryDeclined(RequestID, attempt: Int, RetryDeclined)
    /// The request was cancelled, by the user or because a newer one superseded it.
    case cancelled(RequestID, superseded: Bool)
    /// What the HTTP cache decided.
    case cacheDecision(RequestID, CacheReport)
    /// The auth middleware refreshed (or failed to refresh) the token.
    case tokenRefresh(RequestID, succeeded: Bool)
    /// What the OAuth 2.0 middleware did about the request's token (reused, fetched, refreshed), or what
    /// the user must do to sign in. The token requests themselves are attempts of requests of their own.
    case auth(RequestID, AuthEvent)

    public var requestID: RequestID {
        switch self {
        case .attemptStarted(let id, _, _, _, _, _), .attemptFinished(let id, _, _, _),
             .retryScheduled(let id, _, _, _), .retryDeclined(let id, _, _), .cancelled(let id, _),
             .cacheDecision(let id, _),
             .tokenRefresh(let id, _), .auth(let id, _):
            id
        }
    }
}

/// How one attempt ended.
public enum AttemptOutcome: Sendable {
    case response(status: Int, headers: HTTPHeaders)
    case failure(APIError)
}

/// Where events go. Cheap to copy; the default drops everything.
public struct EventSink: Sendable {
    private let handler: @Sendable (ClientEvent) -> Void
    public init(_ handler: @escaping @Sendable (ClientEvent) -> Void) { self.handler = handler }
    public func emit(_ event: ClientEvent) { handler(event) }
    public static let none = EventSink { _ in }

    /// Sends every event to both sinks.
    public func merged(with other: EventSink) -> EventSink {
        EventSink { event in self.emit(event); other.emit(event) }
    }
}

import Foundation

/// Why the retry policy handed a failed attempt back instead of sending the request again.
public struct RetryDeclined: Sendable, Hashable, CustomStringConvertible {
    /// The rule that stopped the retry.
    public enum Reason: Sendable, Hashable {
        /// The method may change state on the server and the request carries no Idempotency-Key.
        case notIdempotent(HTTPMethod)
        /// The error is of a kind another attempt would meet again.
        case kindNotRetryable(APIError.Kind)
        /// Every attempt of the budget has been made.
        case attemptsExhausted(Int)
        /// The server asked for a wait longer than the policy waits out.
        case retryAfterTooLong(Duration, limit: Duration)
        /// The overall deadline would pass before the next attempt began.
        case deadline(Duration)
    }

    /// What ended the attempt: a status the policy would retry, or a failure of some kind.
    public enum Trigger: Sendable, Hashable, CustomStringConvertible {
        case status(Int)
        case error(APIError.Kind)

        /// As the log names it: "HTTP 503", "connectionLost", "protocol".
        public var description: String {
            switch self {
            case .status(let status): "HTTP \(status)"
            case .error(let kind): kind.rawValue
            }
        }
    }

    /// What ended the attempt.
    public var trigger: Trigger
    public var reason: Reason

    public init(trigger: Trigger, reason: Reason) {
        self.trigger = trigger
        self.reason = reason
    }

    /// One line for the log, `-v` and `--json`: the trigger, then the rule.
    public var description: String {
        switch reason {
        case .notIdempotent(let method):
            "\(trigger): \(method) without an Idempotency-Key is not retried"
        case .kindNotRetryable(let kind):
            "\(trigger) is not retried: "
                + (RetryPolicy.notRetriedErrorKinds[kind] ?? "another attempt would fail the same way")
        case .attemptsExhausted(let attempts):
            "\(trigger) after \(attempts) \(attempts == 1 ? "attempt" : "attempts"), the most allowed"
        case .retryAfterTooLong(let wait, let limit):
            "\(trigger): Retry-After \(RetryPolicy.format(wait)) is longer than \(RetryPolicy.format(limit))"
        case .deadline(let deadline):
            "\(trigger): the \(RetryPolicy.format(deadline)) deadline leaves no time to retry"
        }
    }
}

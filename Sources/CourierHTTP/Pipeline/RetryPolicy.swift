import Foundation

/// When and how long to wait before sending a request again, as data (DESIGN.md section 2).
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// No retry is scheduled whose wait would end later than this after the first attempt began.
    public var deadline: Duration
    /// The first backoff; each further one doubles, up to `maxDelay`.
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The share of each backoff that is random (0 = none, 1 = "full jitter").
    public var jitter: Double
    /// A Retry-After up to this long is waited out; a longer one is surfaced to the caller instead.
    public var maxRetryAfter: Duration

    public init(maxAttempts: Int = 3, deadline: Duration = .seconds(30), baseDelay: Duration = .milliseconds(250),
                maxDelay: Duration = .seconds(4), jitter: Double = 0.5, maxRetryAfter: Duration = .seconds(10)) {
        self.maxAttempts = maxAttempts
        self.deadline = deadline
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxRetryAfter = maxRetryAfter
    }

    /// Three attempts within 30 seconds, backoff from 250 ms, Retry-After honoured up to 10 seconds.
    public static let standard = RetryPolicy()

    // MARK: The rules, as named sets

    /// Statuses worth another try: the request timed out at the server, a rate limit, or a server fault.
    public static let retryableStatuses: Set<Int> = Set([408, 429]).union(500...599)
    /// Statuses that will not change by asking again: the request itself is wrong or forbidden.
    public static let neverRetriedStatuses: Set<Int> = [400, 401, 403, 404, 409, 422]
    /// Failures of the transport that a later attempt may not meet: a port nothing listens on yet (a server
    /// restarting answers a moment later), no route (a network coming back), no answer in time, or a
    /// connection that broke mid-answer.
    public static let retryableErrorKinds: Set<APIError.Kind> = [.connectionRefused, .unreachable, .timedOut,
                                                                  .connectionLost]
    /// Failures a later attempt would meet again, each with the reason the log gives for not retrying.
    public static let notRetriedErrorKinds: [APIError.Kind: String] = [
        .protocolError: "the server's reply breaks HTTP, and asking again gets the same reply",
        .tls: "a certificate or handshake problem does not go away by asking again",
        .badURL: "the URL cannot be sent as written",
        .tooLarge: "the body would exceed the size limit again",
        .signIn: "no token could be had; sending the request again would not get one",
        .dnsFailure: "a name that does not resolve does not resolve a moment later either",
    ]

    /// What to do after an attempt.
    public enum Decision: Sendable, Hashable {
        /// Send again after `delay`; `reason` is shown in the log and `--json`.
        case retry(after: Duration, reason: String)
        /// Hand the result to the caller; `declined` says why a failure is not retried (nil: a success,
        /// or a status no retry was considered for, such as 404).
        case stop(declined: RetryDeclined?)
    }

    /// The decision after attempt number `attempt` ended with `outcome`.
    /// - Parameters:
    ///   - elapsed: time since the first attempt began, for the deadline.
    ///   - retryAfter: the server's Retry-After as a delay, already parsed.
    ///   - random: a value in 0..<1 for the jitter, drawn only when a backoff is computed (a system call).
    public func decide(request: HTTPRequest, outcome: Result<HTTPResponse, APIError>, attempt: Int,
                       elapsed: Duration, retryAfter: Duration?, random: @autoclosure () -> Double) -> Decision {
        let trigger: RetryDeclined.Trigger
        switch outcome {
        case .success(let response):
            guard Self.retryableStatuses.contains(response.status),
                  !Self.neverRetriedStatuses.contains(response.status) else { return .stop(declined: nil) }
            trigger = .status(response.status)
        case .failure(let error):
            if case .cancelled = error { return .stop(declined: nil) }
            guard Self.retryableErrorKinds.contains(error.kind) else {
                let declined = RetryDeclined(trigger: .error(error.kind), reason: .kindNotRetryable(error.kind))
                return .stop(declined: declined)
            }
            trigger = .error(error.kind)
        }
        let reason = trigger.description
        func declined(_ rule: RetryDeclined.Reason) -> Decision {
            .stop(declined: RetryDeclined(trigger: trigger, reason: rule))
        }
        guard request.isRetryable else { return declined(.notIdempotent(request.method)) }
        let budget = max(1, request.maxAttempts ?? maxAttempts)
        guard attempt < budget else { return declined(.attemptsExhausted(attempt)) }
        let delay: Duration
        let why: String
        if let retryAfter {
            guard retryAfter <= maxRetryAfter else {
                return declined(.retryAfterTooLong(retryAfter, limit: maxRetryAfter))
            }
            delay = retryAfter
            why = "\(reason), Retry-After \(Self.format(retryAfter))"
        } else {
            delay = backoff(attempt: attempt, random: random())
            why = reason
        }
        guard elapsed + delay <= deadline else { return declined(.deadline(deadline)) }
        return .retry(after: delay, reason: why)
    }

    /// Exponential backoff for the wait after attempt `attempt`, with `jitter` of it random.
    public func backoff(attempt: Int, random: Double) -> Duration {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        let full = min(baseDelay.seconds * pow(2, exponent), maxDelay.seconds)
        let share = min(max(jitter, 0), 1)
        let seconds = full * (1 - share) + full * share * min(max(random, 0), 1)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : DurationText.format(duration)
    }
}

extension Duration {
    /// Seconds as a Double.
    public var seconds: Double { milliseconds / 1000 }
}

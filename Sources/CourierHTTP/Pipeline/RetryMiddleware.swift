import Foundation

/// Sends a request again as `RetryPolicy` decides, announcing each retry with its reason and
/// delay, and each failure it does not retry with the reason why. Cancellation ends it at once, in
/// an attempt or during the wait.
public struct RetryMiddleware: Middleware {
    public let policy: RetryPolicy
    private let sleeper: any Sleeper
    private let random: @Sendable () -> Double
    private let wallClock: @Sendable () -> Date

    /// - Parameters:
    ///   - random: the jitter source, a value in 0..<1.
    ///   - wallClock: "now" for Retry-After dates.
    public init(policy: RetryPolicy, sleeper: any Sleeper = SystemSleeper(),
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                wallClock: @escaping @Sendable () -> Date = { Date() }) {
        self.policy = policy
        self.sleeper = sleeper
        self.random = random
        self.wallClock = wallClock
    }

    /// Calls `next` once per attempt until the policy stops.
    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        let start = sleeper.now()
        var context = context
        var attempt = 1
        while true {
            context.attempt = attempt
            let outcome: Result<HTTPResponse, APIError>
            do {
                outcome = .success(try await next(request, context))
            } catch {
                if case .cancelled = error { throw error }
                outcome = .failure(error)
            }
            if Task.isCancelled { throw APIError.cancelled }
            let retryAfter = (try? outcome.get()).flatMap { RetryAfter.delay(in: $0.headers, now: wallClock()) }
            let decision = policy.decide(request: request, outcome: outcome, attempt: attempt,
                                         elapsed: sleeper.now() - start, retryAfter: retryAfter, random: random())
            guard case .retry(let delay, let reason) = decision else {
                if case .stop(let declined?) = decision {
                    context.events.emit(.retryDeclined(context.id, attempt: attempt, declined))
                }
                return try outcome.get()
            }
            context.events.emit(.retryScheduled(context.id, attempt: attempt, reason: reason, delay: delay))
            discardSpilledBody(of: outcome)
            do {
                try await sleeper.sleep(for: delay)
            } catch {
                throw APIError.cancelled
            }
            attempt += 1
        }
    }

    /// A response that will be replaced by a retry no longer needs its temporary file.
    private func discardSpilledBody(of outcome: Result<HTTPResponse, APIError>) {
        if case .success(let response) = outcome { TemporaryBodyFiles.release(response.body) }
    }
}

import Foundation

/// The innermost step: brackets each transport call with `attemptStarted` and `attemptFinished`,
/// so every event pair is one real attempt (a fresh cache hit never gets here).
public struct AttemptEvents: Middleware {
    public init() {}

    /// Emits the attempt's events around one call of `next`.
    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        context.events.emit(.attemptStarted(context.id, attempt: context.attempt, method: request.method,
                                            url: request.url, headers: request.headers, at: Date()))
        do {
            let response = try await next(request, context)
            context.events.emit(.attemptFinished(context.id, attempt: context.attempt,
                                                 outcome: .response(status: response.status, headers: response.headers),
                                                 timing: response.timing))
            return response
        } catch {
            context.events.emit(.attemptFinished(context.id, attempt: context.attempt, outcome: .failure(error),
                                                 timing: nil))
            throw error
        }
    }
}

/// The rest of the pipeline, as seen by a middleware. It throws only `APIError`, so a middleware switches on
/// the failure's cases (a retry on `.connectionLost`, the cache's stale answer on a disconnection) without a
/// cast. A closure written for it names the type: `{ request, context throws(APIError) in … }`.
public typealias Next = @Sendable (HTTPRequest, RequestContext) async throws(APIError) -> HTTPResponse

/// A step of the pipeline. It may call `next` zero, one or many times and change what comes back.
/// A middleware that needs a request of its own (a token refresh) uses the transport directly.
/// `next` may be kept past the call (the cache validates in the background with it).
public protocol Middleware: Sendable {
    func intercept(_ request: HTTPRequest, context: RequestContext,
                   next: @escaping Next) async throws(APIError) -> HTTPResponse
}

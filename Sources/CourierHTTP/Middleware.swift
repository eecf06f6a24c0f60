/// The rest of the pipeline, as seen by a middleware.
public typealias Next = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

/// A step of the pipeline. It may call `next` zero, one or many times and change what comes back.
/// A middleware that needs a request of its own (a token refresh) uses the transport directly.
/// `next` may be kept past the call (the cache validates in the background with it).
public protocol Middleware: Sendable {
    func intercept(_ request: HTTPRequest, context: RequestContext, next: @escaping Next) async throws -> HTTPResponse
}

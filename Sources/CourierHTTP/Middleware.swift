/// The rest of the pipeline, as seen by a middleware.
public typealias Next = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

/// A step of the pipeline. It may call `next` zero, one or many times and change what comes back.
/// A middleware that needs a request of its own (a token refresh) uses the transport directly.
public protocol Middleware: Sendable {
    func intercept(_ request: HTTPRequest, context: RequestContext, next: Next) async throws -> HTTPResponse
}

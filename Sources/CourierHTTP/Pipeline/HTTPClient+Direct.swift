import Foundation

extension HTTPClient {
    /// One request sent straight to the client's transport, for a request no step of the pipeline has work for
    /// (`HTTPClient.direct(_:)`). The cookie jars are still applied, in place rather than as a step. It emits no
    /// attempt events: for callers that watch none and send the same request many times (`courier load`),
    /// where each step's async call and copy of the request and response was a measurable share of the CPU.
    public struct DirectSend: Sendable {
        let transport: any Transport
        let request: HTTPRequest
        let cookies: CookieMiddleware?

        /// Sends the request once.
        public func callAsFunction(context: RequestContext = RequestContext()) async throws(APIError) -> HTTPResponse {
            guard let cookies else { return try await transport.send(request, context: context) }
            let (request, jar) = cookies.attach(to: request)
            guard let jar else { return try await transport.send(request, context: context) }
            var response = try await transport.send(request, context: context)
            cookies.keep(from: &response, sent: request, in: jar)
            return response
        }
    }

    /// `request` sent without the pipeline's steps, when none of them would do anything for it but cookies:
    /// no auth step, cache or retry policy in the client, no step of the caller's but the cookie jars, and
    /// no OAuth 2.0 token, AWS or OAuth 1.0a signature in the request. Nil when some step has work.
    public func direct(_ request: HTTPRequest) -> DirectSend? {
        let configuration = self.configuration
        guard configuration.auth == nil, configuration.cache == nil, configuration.retry == nil,
              configuration.middlewares.count <= 1, request.oauth2.isEmpty, request.awsSigV4 == nil,
              request.oauth1 == nil else { return nil }
        var cookies: CookieMiddleware?
        if let step = configuration.middlewares.first {
            guard let jars = step as? CookieMiddleware else { return nil }
            cookies = jars
        }
        return DirectSend(transport: configuration.transport, request: request, cookies: cookies)
    }
}

import Foundation

/// Sends the jar's cookies with each request whose `cookieJar` names one, and stores what the response
/// sets. A Cookie header the request carries itself comes first; the jar's cookies follow it.
public struct CookieMiddleware: Middleware {
    /// The jar for an environment name; nil when there is none.
    public let jar: @Sendable (String) -> CookieJar?

    /// A middleware reading jars from `jar`.
    public init(jar: @escaping @Sendable (String) -> CookieJar?) { self.jar = jar }

    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        guard let name = request.cookieJar, let jar = jar(name) else { return try await next(request, context) }
        var request = request
        jar.addCookies(to: &request.headers, for: request.url)
        var response = try await next(request, context)
        // The jar's values went out as credentials: the caller masks them where the response echoes them.
        response.sentSecrets.formUnion(request.headers.secretValues)
        let values = response.headers.values(for: "Set-Cookie")
        // The final URL after redirects is what set the cookie.
        if !values.isEmpty { jar.store(setCookie: values, from: response.url) }
        return response
    }
}

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
        let (request, jar) = attach(to: request)
        guard let jar else { return try await next(request, context) }
        var response = try await next(request, context)
        keep(from: &response, sent: request, in: jar)
        return response
    }

    /// `request` with its jar's cookies for its URL added, and that jar; nil when it names none.
    public func attach(to request: HTTPRequest) -> (HTTPRequest, CookieJar?) {
        guard let name = request.cookieJar, let jar = jar(name) else { return (request, nil) }
        var request = request
        jar.addCookies(to: &request.headers, for: request.url)
        return (request, jar)
    }

    /// Stores in `jar` what `response` sets, and marks the values `sent` carried as credentials.
    public func keep(from response: inout HTTPResponse, sent request: HTTPRequest, in jar: CookieJar) {
        // The jar's values went out as credentials: the caller masks them where the response echoes them.
        response.sentSecrets.formUnion(request.headers.secretValues)
        let values = response.headers.values(for: "Set-Cookie")
        // The final URL after redirects is what set the cookie.
        if !values.isEmpty { jar.store(setCookie: values, from: response.url) }
    }
}

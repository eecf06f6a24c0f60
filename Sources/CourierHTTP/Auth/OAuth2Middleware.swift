import Foundation

/// Puts the OAuth 2.0 tokens a request names (`HTTPRequest.oauth2`) where their placeholders stand: held
/// ones while they last, else refreshed or fetched by `OAuth2Session`. On a 401 with a token that was held
/// (not just fetched), the token is renewed once, shared by every request refused at the same time, and the
/// request sent once more. The tokens join the response's `sentSecrets`, so every writer masks them.
public struct OAuth2Middleware: Middleware {
    public let session: OAuth2Session

    public init(session: OAuth2Session) { self.session = session }

    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        guard !request.oauth2.isEmpty else { return try await next(request, context) }
        var tokens: [String: Credentials] = [:]
        var anyHeld = false
        for configuration in request.oauth2 where tokens[configuration.id] == nil {
            let (credentials, fresh) = try await session.credentials(for: configuration, context: context)
            tokens[configuration.id] = credentials
            anyHeld = anyHeld || !fresh
        }
        var sent = Set(tokens.values.flatMap(\.secrets))
        var response = try await next(try OAuth2Placeholder.substituting(tokens, into: request,
                                                                         configurations: request.oauth2), context)
        response.sentSecrets.formUnion(sent)
        // A token just fetched and refused at once would be refused again: the 401 goes back as it is.
        guard response.status == 401, anyHeld else { return response }
        for configuration in request.oauth2 {
            guard let stale = tokens[configuration.id] else { continue }
            tokens[configuration.id] = try await session.renew(for: configuration, replacing: stale.accessToken,
                                                               context: context)
        }
        sent.formUnion(tokens.values.flatMap(\.secrets))
        var replayed = try await next(try OAuth2Placeholder.substituting(tokens, into: request,
                                                                         configurations: request.oauth2), context)
        replayed.sentSecrets.formUnion(sent)
        return replayed
    }
}

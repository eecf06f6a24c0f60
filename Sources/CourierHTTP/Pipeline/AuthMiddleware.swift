import Foundation

/// How to renew a token: the request to send and how to read the answer.
public struct TokenRefresher: Sendable {
    public var makeRequest: @Sendable (Credentials) -> HTTPRequest
    public var parse: @Sendable (HTTPResponse) throws(APIError) -> Credentials

    public init(makeRequest: @escaping @Sendable (Credentials) -> HTTPRequest,
                parse: @escaping @Sendable (HTTPResponse) throws(APIError) -> Credentials) {
        self.makeRequest = makeRequest
        self.parse = parse
    }

    /// A JSON refresh endpoint: POST `{"refresh_token": …}`, answer `{"access_token": …, "refresh_token": …}`
    /// (`token` / `accessToken` are accepted too).
    public static func json(url: URL) -> TokenRefresher {
        TokenRefresher(makeRequest: { credentials in
            let body = (try? JSONSerialization.data(withJSONObject: ["refresh_token": credentials.refreshToken ?? ""]))
            return HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json"],
                               body: .data(body ?? Data()))
        }, parse: { response throws(APIError) in
            let body: Data
            do { body = try response.body.readAll() } catch { throw .protocolError(underlying: "\(error)") }
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            let token = ["access_token", "accessToken", "token"].lazy.compactMap { object?[$0] as? String }.first
            guard let token else {
                throw APIError.decoding(path: "access_token", underlying: "the refresh answer has no access token")
            }
            let refresh = ["refresh_token", "refreshToken"].lazy.compactMap { object?[$0] as? String }.first
            return Credentials(accessToken: token, refreshToken: refresh)
        })
    }
}

/// Attaches the bearer token; on a 401 renews it once (shared by all concurrent callers through
/// the `TokenStore`) and replays the request once. The refresh goes to the transport directly,
/// never through `next`, and a 401 from the refresh signs out instead of looping.
public struct AuthMiddleware: Middleware {
    public let store: TokenStore
    private let refresher: TokenRefresher?
    private let transport: any Transport

    public init(store: TokenStore, refresher: TokenRefresher?, transport: any Transport) {
        self.store = store
        self.refresher = refresher
        self.transport = transport
    }

    /// Adds Authorization, and handles one 401 by renewing and replaying.
    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        // A request carrying its own Authorization is the user's choice; leave it alone.
        guard !request.headers.contains("Authorization"), let token = store.accessToken else {
            return try await next(request, context)
        }
        var response = try await next(request.authorized(with: token), context)
        response.sentSecrets.insert(token)
        guard response.status == 401, let refresher else { return response }
        let renewed: Credentials
        do {
            renewed = try await store.renew(replacing: token) { credentials throws(APIError) in
                try await refresh(credentials, with: refresher, context: context)
            }
            context.events.emit(.tokenRefresh(context.id, succeeded: true))
        } catch {
            context.events.emit(.tokenRefresh(context.id, succeeded: false))
            if case .unauthorized = error { return response }
            throw error
        }
        // Exactly one replay: a second 401 goes back to the caller as it is.
        var replayed = try await next(request.authorized(with: renewed.accessToken), context)
        replayed.sentSecrets.formUnion([token, renewed.accessToken])
        return replayed
    }

    private func refresh(_ credentials: Credentials, with refresher: TokenRefresher,
                         context: RequestContext) async throws(APIError) -> Credentials {
        // Without the caller's hooks: the refresh's head and body are not the caller's response.
        let refreshContext = RequestContext(id: context.id, attempt: 1, events: .none)
        let response = try await transport.send(refresher.makeRequest(credentials), context: refreshContext)
        if let failure = APIError(response: response) {
            // 401 or 403 from the refresh endpoint: the refresh token is no good; sign in again.
            if response.status == 403 { throw APIError.unauthorized(body: (try? response.body.readAll()) ?? Data()) }
            throw failure
        }
        return try refresher.parse(response)
    }
}

extension HTTPRequest {
    /// The request with a bearer token in Authorization.
    func authorized(with token: String) -> HTTPRequest {
        var copy = self
        copy.headers["Authorization"] = "Bearer \(token)"
        return copy
    }
}

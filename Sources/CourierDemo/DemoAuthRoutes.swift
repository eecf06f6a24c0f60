import Foundation

/// `/auth/login`, `/auth/refresh` and `/me`: bearer tokens that expire quickly, for refresh flows.
enum DemoAuthRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute(["POST"], "/auth/login", "Token pair for any credentials (?ttl= seconds, default 60)", login),
        DemoRoute(["POST"], "/auth/refresh", "New access token for {\"refresh_token\"}; 401 when unknown", refresh),
        DemoRoute(["GET"], "/me", "The signed-in user; 401 without a valid, unexpired Bearer token", me),
    ]

    /// Default access-token lifetime in seconds: short, so expiry happens during a demo.
    static let defaultLifetime = 60.0
    static let lifetimeRange = 0.0...86_400.0
    /// The challenge sent with every 401.
    static let realm = "Bearer realm=\"courier-demo\""

    private static func login(_ context: DemoContext) -> DemoResponse {
        let fields = DemoJSON.object(context.request.body) ?? formFields(context.request.body)
        let username = (fields["username"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "demo"
        if let password = fields["password"] as? String, password.isEmpty {
            return unauthorized("invalid_grant", "the password must not be empty")
        }
        let lifetime = context.decimal("ttl", default: defaultLifetime, in: lifetimeRange)
        let pair = context.core.state.withLock { $0.tokens.login(username: username, lifetime: lifetime, now: Date()) }
        return .json(200, ["access_token": pair.access, "refresh_token": pair.refresh, "token_type": "Bearer",
                           "expires_in": lifetime], headers: [("Cache-Control", "no-store")])
    }

    private static func refresh(_ context: DemoContext) -> DemoResponse {
        let fields = DemoJSON.object(context.request.body) ?? formFields(context.request.body)
        guard let token = fields["refresh_token"] as? String else {
            return unauthorized("invalid_request", "the body must carry \"refresh_token\"")
        }
        let lifetime = context.request.queryValue("ttl").map { _ in
            context.decimal("ttl", default: defaultLifetime, in: lifetimeRange)
        }
        guard let issued = context.core.state.withLock({ $0.tokens.refresh(token, lifetime: lifetime, now: Date()) })
        else { return unauthorized("invalid_grant", "unknown refresh token") }
        return .json(200, ["access_token": issued.access, "refresh_token": token, "token_type": "Bearer",
                           "expires_in": issued.lifetime], headers: [("Cache-Control", "no-store")])
    }

    private static func me(_ context: DemoContext) -> DemoResponse {
        guard let authorization = context.request.header("Authorization"),
              authorization.lowercased().hasPrefix("bearer ") else {
            return .error(401, "sign in first: POST /auth/login, then send Authorization: Bearer <token>",
                          headers: [("WWW-Authenticate", realm)])
        }
        let token = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        switch context.core.state.withLock({ $0.tokens.verdict(token, now: Date()) }) {
        case .valid(let username, let expiresIn):
            return .json(200, ["username": username, "email": "\(username)@example.com", "roles": ["reader", "writer"],
                               "token_expires_in": (expiresIn * 10).rounded() / 10])
        case .expired:
            return unauthorized("invalid_token", "the access token expired")
        case .unknown:
            return unauthorized("invalid_token", "unknown access token")
        }
    }

    private static func unauthorized(_ code: String, _ description: String) -> DemoResponse {
        .error(401, description, headers: [("WWW-Authenticate", "\(realm), error=\"\(code)\", error_description=\"\(description)\"")],
               extra: ["error_code": code])
    }

    /// Fields of an `application/x-www-form-urlencoded` body.
    private static func formFields(_ body: Data) -> [String: Any] {
        var fields: [String: Any] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}

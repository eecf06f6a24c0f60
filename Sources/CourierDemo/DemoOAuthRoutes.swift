import Foundation

/// An OAuth 2.0 authorization server for the demo's `Security.Auth` configurations: client credentials
/// (`demo-client` / `demo-secret`), password, refresh, the authorization code with PKCE (the demo signs
/// you in at once and redirects back) and the device grant (approved when its page is opened, or by itself
/// after a few seconds). Its access tokens open `GET /me` like `/auth/login`'s.
enum DemoOAuthRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute(["POST"], "/oauth/token", "OAuth 2.0 token endpoint: client_credentials, password, "
                      + "authorization_code (PKCE S256), device_code, refresh_token", token),
        DemoRoute(["GET"], "/oauth/authorize", "Signs in at once and redirects to the loopback redirect_uri "
                      + "with a code", authorize),
        DemoRoute(["POST"], "/oauth/device", "Device authorization: a user code to show (RFC 8628)", device),
        DemoRoute(["GET"], "/oauth/device/verify", "Approves ?user_code=", verify),
    ]

    /// The confidential client of the client-credentials and password grants.
    static let client = (id: "demo-client", secret: "demo-secret")
    /// Access tokens of the OAuth routes live an hour (`/auth/login`'s a minute).
    static let lifetime = 3600.0

    private static func token(_ context: DemoContext) -> DemoResponse {
        let fields = DemoForm.fields(context.request.body)
        let clientID = basicClient(context) ?? fields["client_id"] ?? ""
        let now = Date()
        switch fields["grant_type"] ?? "" {
        case "client_credentials", "password":
            let secret = basicSecret(context) ?? fields["client_secret"]
            guard clientID == client.id, secret == client.secret else {
                return failure(401, "invalid_client", "the demo's client is demo-client / demo-secret")
            }
            if fields["grant_type"] == "password", (fields["password"] ?? "").isEmpty {
                return failure(400, "invalid_grant", "the password must not be empty")
            }
            return issue(context, user: fields["username"] ?? clientID, now: now)
        case "authorization_code":
            let redeemed = context.core.state.withLock {
                $0.oauth.redeem(fields["code"] ?? "", verifier: fields["code_verifier"], redirect: fields["redirect_uri"])
            }
            guard redeemed != nil else {
                return failure(400, "invalid_grant", "unknown or used code, or a verifier that is not the challenge's")
            }
            return issue(context, user: "ada", now: now)
        case "urn:ietf:params:oauth:grant-type:device_code":
            switch context.core.state.withLock({ $0.oauth.poll(fields["device_code"] ?? "", now: now) }) {
            case .approved: return issue(context, user: "ada", now: now)
            case .pending: return failure(400, "authorization_pending", "open the verification page")
            case .slowDown: return failure(400, "slow_down", "poll less often")
            case .unknown: return failure(400, "expired_token", "unknown device code")
            }
        case "refresh_token":
            guard let issued = context.core.state.withLock({
                $0.tokens.refresh(fields["refresh_token"] ?? "", lifetime: lifetime, now: now)
            }) else { return failure(400, "invalid_grant", "unknown refresh token") }
            return .json(200, ["access_token": issued.access, "token_type": "Bearer", "expires_in": issued.lifetime],
                         headers: [("Cache-Control", "no-store")])
        default:
            return failure(400, "unsupported_grant_type", "grant_type must be one of the demo's")
        }
    }

    private static func authorize(_ context: DemoContext) -> DemoResponse {
        let request = context.request
        guard let redirect = request.queryValue("redirect_uri"), redirect.hasPrefix("http://127.0.0.1:")
                || redirect.hasPrefix("http://localhost:"), var target = URLComponents(string: redirect) else {
            return .error(400, "redirect_uri must be a loopback address (RFC 8252)")
        }
        if let method = request.queryValue("code_challenge_method"), method != "S256" {
            return .error(400, "only the S256 code challenge is supported")
        }
        let code = context.core.state.withLock {
            $0.oauth.issueCode(challenge: request.queryValue("code_challenge"), redirect: redirect,
                               client: request.queryValue("client_id") ?? "")
        }
        target.queryItems = (target.queryItems ?? []) + [URLQueryItem(name: "code", value: code)]
            + (request.queryValue("state").map { [URLQueryItem(name: "state", value: $0)] } ?? [])
        return DemoResponse(status: 302, headers: [("Location", target.string ?? redirect), ("Content-Length", "0")])
    }

    private static func device(_ context: DemoContext) -> DemoResponse {
        let fields = DemoForm.fields(context.request.body)
        let issued = context.core.state.withLock { $0.oauth.issueDevice(client: fields["client_id"] ?? "", now: Date()) }
        let verify = "http://\(context.request.header("Host") ?? "127.0.0.1")/oauth/device/verify"
        return .json(200, ["device_code": issued.deviceCode, "user_code": issued.userCode, "verification_uri": verify,
                           "verification_uri_complete": verify + "?user_code=" + issued.userCode,
                           "expires_in": 300, "interval": 1])
    }

    private static func verify(_ context: DemoContext) -> DemoResponse {
        let code = context.request.queryValue("user_code") ?? ""
        let approved = context.core.state.withLock { $0.oauth.approve(userCode: code) }
        return approved ? .json(200, ["approved": code]) : .error(404, "no device code \(code) is waiting")
    }

    private static func issue(_ context: DemoContext, user: String, now: Date) -> DemoResponse {
        let pair = context.core.state.withLock { $0.tokens.login(username: user, lifetime: lifetime, now: now) }
        return .json(200, ["access_token": pair.access, "refresh_token": pair.refresh, "token_type": "Bearer",
                           "expires_in": lifetime], headers: [("Cache-Control", "no-store")])
    }

    private static func failure(_ status: Int, _ code: String, _ description: String) -> DemoResponse {
        .json(status, ["error": code, "error_description": description], headers: [("Cache-Control", "no-store")])
    }

    /// The client id and secret of a Basic Authorization header.
    private static func basicPair(_ context: DemoContext) -> (String, String)? {
        guard let header = context.request.header("Authorization"), header.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6))),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        let decode = { (part: Substring) in part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part) }
        return (decode(text[..<colon]), decode(text[text.index(after: colon)...]))
    }

    private static func basicClient(_ context: DemoContext) -> String? { basicPair(context)?.0 }
    private static func basicSecret(_ context: DemoContext) -> String? { basicPair(context)?.1 }
}

/// Fields of an `application/x-www-form-urlencoded` body.
enum DemoForm {
    static func fields(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}

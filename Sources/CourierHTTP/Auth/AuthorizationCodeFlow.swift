import Foundation

/// The authorization code grant with PKCE (RFC 6749 section 4.1, RFC 7636) for a native app (RFC 8252):
/// the user signs in in a browser, and the code comes back to a listener on 127.0.0.1 (a port the system
/// picks, unless `Redirect URL` names one). The URL is printed, and opened in a browser when there is one;
/// a redirect whose `state` is not the one sent is refused and its code never used.
struct AuthorizationCodeFlow {
    let session: OAuth2Session
    let configuration: OAuth2Configuration
    let context: RequestContext

    /// The path the redirect comes to when `Redirect URL` names none.
    static let defaultPath = "/callback"

    func run() async throws(APIError) -> Credentials {
        guard let authorizationURL = configuration.authorizationURL else {
            throw APIError.signIn(configuration: configuration.id,
                                  reason: "the authorization code grant needs 'Auth URL' (the authorization endpoint)")
        }
        let (port, host, path) = try redirectTarget()
        let listener: LoopbackRedirectListener
        do { listener = try LoopbackRedirectListener(port: port) } catch {
            throw APIError.signIn(configuration: configuration.id, reason: "\(error)")
        }
        defer { listener.stop() }
        let redirect = "http://\(host):\(listener.port)\(path)"
        let state = PKCE.randomText(bytes: 16)
        let verifier = PKCE.verifier()
        var query = [URLQueryItem(name: "response_type", value: "code"),
                     URLQueryItem(name: "client_id", value: configuration.clientID),
                     URLQueryItem(name: "redirect_uri", value: redirect),
                     URLQueryItem(name: "state", value: state)]
        if let scope = configuration.scope, !scope.isEmpty { query.append(URLQueryItem(name: "scope", value: scope)) }
        if configuration.usesPKCE {
            query += [URLQueryItem(name: "code_challenge", value: PKCE.challenge(for: verifier)),
                      URLQueryItem(name: "code_challenge_method", value: "S256")]
        }
        for parameter in configuration.parameters(for: .authorizationRequest) {
            query.append(URLQueryItem(name: parameter.name, value: parameter.value))
        }
        guard var components = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false) else {
            throw APIError.signIn(configuration: configuration.id, reason: "'Auth URL' is not a URL")
        }
        components.queryItems = (components.queryItems ?? []) + query
        // `+` is a space to many servers: a scope or a value holding one must arrive as itself.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw APIError.signIn(configuration: configuration.id, reason: "'Auth URL' is not a URL")
        }
        let prompt = AuthPrompt.openURL(url, opened: session.hooks.openBrowser(url))
        session.hooks.prompt(prompt)
        context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id, action: .prompt(prompt))))

        let outcome = await listener.waitForRedirect(path: path, limit: session.hooks.signInWait) { items in
            items["state"] == state && items["code"] != nil
                ? Self.page("Signed in. You can close this tab and go back to Courier.")
                : Self.page("Courier could not sign in; go back to the terminal to see why.")
        }
        let items: [String: String]
        switch outcome {
        case .redirected(let query): items = query
        case .stopped: throw .cancelled
        case .timedOut:
            // A run with nobody at a browser (CI, a remote shell) ends instead of waiting for ever.
            throw APIError.signIn(configuration: configuration.id, reason: "no browser came back to \(redirect) "
                                      + "within \(Self.describe(session.hooks.signInWait)); open the printed URL "
                                      + "in a browser on this machine (over SSH, forward port \(listener.port)), "
                                      + "or use a grant that needs no browser (client credentials, device code)")
        }
        guard items["state"] == state else {
            throw APIError.signIn(configuration: configuration.id, reason: "the redirect's state did not match the "
                                      + "one sent, so its code was not used (a stale or forged redirect)")
        }
        if let error = items["error"] {
            let description = items["error_description"].map { " (\(OAuth2TokenEndpoint.Answer.short($0)))" } ?? ""
            throw APIError.signIn(configuration: configuration.id,
                                  reason: "the authorization server answered '\(error)'\(description)")
        }
        guard let code = items["code"], !code.isEmpty else {
            throw APIError.signIn(configuration: configuration.id, reason: "the redirect brought no code")
        }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect)]
        if configuration.usesPKCE { fields.append(("code_verifier", verifier)) }
        let request = OAuth2TokenEndpoint.request(configuration.tokenURL, fields: fields, configuration: configuration)
        let response = try await session.exchange(request, configuration: configuration, context: context)
        return try OAuth2TokenEndpoint.credentials(response, endpoint: configuration.tokenURL,
                                                   configuration: configuration, now: session.hooks.now())
    }

    /// The port (0: any), host and path the redirect comes to: `Redirect URL`'s when it names this
    /// machine's loopback interface over http, else 127.0.0.1 on a port the system picks.
    private func redirectTarget() throws(APIError) -> (UInt16, String, String) {
        guard let redirect = configuration.redirectURL else { return (0, "127.0.0.1", Self.defaultPath) }
        let host = redirect.host ?? ""
        guard redirect.scheme == "http", ["127.0.0.1", "localhost"].contains(host) else {
            throw APIError.signIn(configuration: configuration.id, reason: "'Redirect URL' \(redirect.absoluteString) "
                                      + "is not on this machine; Courier takes the code on a loopback address "
                                      + "(http://127.0.0.1:PORT/path), so name one there or leave it out")
        }
        let path = redirect.path.isEmpty ? "/" : redirect.path
        return (UInt16(clamping: redirect.port ?? 0), host, path)
    }

    /// "5 minutes", "90 seconds".
    static func describe(_ wait: Duration) -> String {
        let seconds = wait.components.seconds
        if seconds >= 60, seconds % 60 == 0 { return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }

    private static func page(_ text: String) -> String {
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Courier</title></head><body><p>\(text)</p></body></html>"
    }
}

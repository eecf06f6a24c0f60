import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// What a token endpoint or a redirect can get wrong, through `courier run` against a loopback server: each
/// a clear error naming the configuration, the protected request never sent, no secret in any output; and
/// the expiry a token comes with, honoured.
@Suite struct OAuth2BadInputRunTests {
    /// A collection whose `svc` configuration gets its token from `server`'s `/token`; `auth` adds fields.
    static func collection(_ server: LoopbackServer, grant: String = "Client Credentials", auth: String = "",
                           request: String = "Authorization: Bearer {{$auth.token(\"svc\")}}") throws -> TemporaryFolder {
        let folder = try TemporaryFolder("oauth-bad")
        let base = server.baseURL.absoluteString
        try folder.write("http-client.env.json", """
            {"dev": {"base": "\(base)", "Security": {"Auth": {"svc": {"Type": "OAuth2", "Grant Type": "\(grant)",
             "Token URL": "\(base)/token", "Client ID": "app"\(auth)}}}}}
            """)
        try folder.write("http-client.private.env.json", """
            {"dev": {"Security": {"Auth": {"svc": {"Client Secret": "private-client-secret"}}}}}
            """)
        try folder.write("api.http", "### me\nGET {{base}}/api/me\n\(request)\n")
        return folder
    }

    static func run(_ folder: TemporaryFolder,
                    whileRunning: (@Sendable (ChildProcess) async throws -> Void)? = nil) async throws -> ChildResult {
        try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url,
                                 environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path,
                                               "DISPLAY": ""], whileRunning: whileRunning)
    }

    /// A server whose token endpoint answers `token`, and whose resource answers 200.
    static func server(token: @escaping @Sendable () -> LoopbackServer.Reply) throws -> LoopbackServer {
        try LoopbackServer { request in
            request.path == "/token" ? token() : .json(#"{"ok": true}"#)
        }
    }

    @Test(arguments: [
        ("html", LoopbackServer.Reply(status: 200, headers: [("Content-Type", "text/html")],
                                      body: Data("<html>private-client-secret</html>".utf8)),
         "answered text/html, not a JSON object (HTTP 200)"),
        ("500", LoopbackServer.Reply(status: 500, headers: [("Content-Type", "text/plain")],
                                     body: Data("boom private-client-secret".utf8)),
         "answered HTTP 500 (text/plain)"),
        ("refused", LoopbackServer.Reply.json(#"{"error": "invalid_client", "error_description": "bad secret"}"#,
                                              status: 401),
         "answered 401 'invalid_client' (bad secret)"),
        ("no token", LoopbackServer.Reply.json(#"{"token_type": "Bearer"}"#), "answered no access_token (HTTP 200)"),
    ])
    func aTokenEndpointThatAnswersNoTokenIsAClearErrorAndNothingIsSent(case name: String, reply: LoopbackServer.Reply,
                                                                      message: String) async throws {
        // Given a token endpoint that answers something other than a token
        let server = try Self.server { reply }
        defer { server.stop() }
        let folder = try Self.collection(server)
        // When the request that needs the token runs
        let result = try await Self.run(folder)
        // Then it fails with an error naming the configuration and what came back; the resource is not asked
        #expect(result.status == 1, "\(name)")
        let output = result.stdout + result.stderr
        #expect(output.contains("sign-in with 'svc' failed: the token endpoint \(server.baseURL.absoluteString)/token "),
                "\(output)")
        #expect(output.contains(message), "\(output)")
        #expect(server.requestCount(path: "/api/me") == 0)
        #expect(!output.contains("private-client-secret"), "\(output)")
        // And the client authenticated with Basic made of its id and secret
        let sent = try #require(server.requests.first { $0.path == "/token" })
        let basic = "Basic " + Data("app:private-client-secret".utf8).base64EncodedString()
        #expect(sent.headers["authorization"] ?? sent.headers["Authorization"] == basic)
    }

    @Test func aTokenWithoutExpiryIsKeptAndOneAboutToExpireIsFetchedAgain() async throws {
        // Given a token endpoint that numbers its tokens, with and without an expiry
        let counter = TokenCounter()
        let server = try LoopbackServer { request in
            guard request.path == "/token" else { return .json(#"{"ok": true}"#) }
            let number = counter.next()
            let expiry = request.body.isEmpty ? "" : (String(decoding: request.body, as: UTF8.self).contains("scope=short")
                ? #", "expires_in": 10"# : "")
            return .json(#"{"access_token": "tok-\#(number)-abcdef", "token_type": "Bearer"\#(expiry)}"#)
        }
        defer { server.stop() }
        // When a configuration without expiry runs twice, then one whose tokens last 10 s runs twice
        let lasting = try Self.collection(server)
        _ = try await Self.run(lasting)
        _ = try await Self.run(lasting)
        let short = try Self.collection(server, auth: #", "Scope": "short""#)
        _ = try await Self.run(short)
        let last = try await Self.run(short)
        // Then the first token served both runs; the short-lived one was fetched again (under 30 s left)
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")
        let sent = server.requests.filter { $0.path == "/api/me" }.map { $0.headers["Authorization"] ?? $0.headers["authorization"] ?? "" }
        #expect(sent == ["Bearer tok-1-abcdef", "Bearer tok-1-abcdef", "Bearer tok-2-abcdef", "Bearer tok-3-abcdef"],
                "\(sent)")
        #expect(!(last.stdout + last.stderr).contains("tok-3-abcdef"))
    }

    @Test func authLsShowsKeptTokensMaskedAndClearForgetsThem() async throws {
        // Given a token kept by a run
        let server = try Self.server { .json(#"{"access_token": "kept-token-4321", "refresh_token": "r-8765"}"#) }
        defer { server.stop() }
        let folder = try Self.collection(server)
        _ = try await Self.run(folder)
        let state = ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path]
        // When it is listed, as text and JSON, then cleared
        let listed = try await CourierCLI.run(["auth", "ls"], environment: state)
        let json = try await CourierCLI.run(["auth", "ls", "--json", "--env", "dev"], environment: state)
        let shown = try await CourierCLI.run(["auth", "ls", "--show-secrets"], environment: state)
        let cleared = try await CourierCLI.run(["auth", "clear", "--env", "dev"], environment: state)
        let after = try await CourierCLI.run(["auth", "ls"], environment: state)
        // Then the listing names it with its tokens masked unless asked, and clear removes it
        #expect(listed.stdout.hasPrefix("dev  svc  client_credentials  \(server.baseURL.absoluteString)/token  access REDACTED  "
                                            + "expires no expiry given  refresh: yes"), "\(listed.stdout)")
        #expect(!(listed.stdout + json.stdout).contains("kept-token-4321") && !json.stdout.contains("r-8765"))
        #expect(try CourierCLI.json(json.stdout)["refresh_token"] as? String == "REDACTED")
        #expect(shown.stdout.contains("access kept-token-4321"))
        #expect(cleared.stdout == "cleared 1 kept token\n")
        #expect(after.stdout.isEmpty)
    }

    @Test func theIdTokenGoesWhereAuthIdTokenStands() async throws {
        // Given an OpenID Connect token endpoint that sends an id token with the access token
        let server = try Self.server {
            .json(#"{"access_token": "access-1234", "id_token": "eyJhbGciOi.id-5678.sig", "expires_in": 3600}"#)
        }
        defer { server.stop() }
        let folder = try Self.collection(server, request: """
            Authorization: Bearer {{$auth.token("svc")}}
            X-Id-Token: {{$auth.idToken("svc")}}
            """)
        // When the request runs
        let result = try await Self.run(folder)
        // Then each token went where it was named, and neither is printed
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let sent = try #require(server.requests.first { $0.path == "/api/me" })
        #expect((sent.headers["Authorization"] ?? sent.headers["authorization"]) == "Bearer access-1234")
        #expect((sent.headers["X-Id-Token"] ?? sent.headers["x-id-token"]) == "eyJhbGciOi.id-5678.sig")
        #expect(!(result.stdout + result.stderr).contains("id-5678"))
    }

    @Test func aRedirectWithAnotherStateIsRefusedAndItsCodeNeverUsed() async throws {
        // Given an authorization-code configuration
        let server = try Self.server { .json(#"{"access_token": "never", "expires_in": 60}"#) }
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let folder = try Self.collection(server, grant: "Authorization Code", auth: #", "Auth URL": "\#(base)/authorize""#)
        // When a redirect with another state reaches Courier's loopback listener
        let result = try await Self.run(folder) { child in
            #expect(await child.stderr.wait { $0.contains("To sign in, open: ") && $0.contains("\n") })
            let line = child.stderr.text.split(separator: "\n").first { $0.contains("To sign in, open: ") } ?? ""
            let url = try #require(URLComponents(string: String(line.components(separatedBy: "open: ").last ?? "")))
            let redirect = try #require(url.queryItems?.first { $0.name == "redirect_uri" }?.value)
            let forged = try await CodeRunners.run("curl", ["-s", redirect + "?code=stolen&state=forged"])
            #expect(forged.stdout.contains("could not sign in"), "\(forged.stdout)")
        }
        // Then the run fails saying so, and the token endpoint never saw the code
        #expect(result.status == 1)
        #expect((result.stdout + result.stderr).contains("sign-in with 'svc' failed: the redirect's state did not match"),
                "\(result.stdout)\(result.stderr)")
        #expect(server.requestCount(path: "/token") == 0)
        #expect(server.requestCount(path: "/api/me") == 0)
    }

    @Test func aBrowserSignInNobodyCompletesEndsWithAClearError() async throws {
        // Given an authorization-code configuration, no browser, and a sign-in wait of two seconds
        let server = try Self.server { .json(#"{"access_token": "never", "expires_in": 60}"#) }
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let folder = try Self.collection(server, grant: "Authorization Code", auth: #", "Auth URL": "\#(base)/authorize""#)
        // When nobody opens the printed URL (a CI job, a remote shell)
        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path,
                                                            "DISPLAY": "", "COURIER_SIGN_IN_WAIT": "2s"])
        // Then the run ends, saying where the browser had to come back and what to do instead
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        #expect(output.contains("sign-in with 'svc' failed: no browser came back to http://127.0.0.1:"), "\(output)")
        #expect(output.contains("within 2 seconds"), "\(output)")
        #expect(server.requestCount(path: "/token") == 0)
        #expect(server.requestCount(path: "/api/me") == 0)
    }
}

/// Numbers from 1, for servers that hand out distinct tokens.
final class TokenCounter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}

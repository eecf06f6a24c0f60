import CourierHTTP
import CourierTestSupport
import Foundation
import Testing

/// `Security.Auth` configurations through `courier run` against an OAuth 2.0 server the project does not
/// write (Authlib, `Tests/Servers/oauth_provider.py`): client credentials, the device grant, the
/// authorization code with PKCE through the loopback redirect, and a refresh after the server stops taking a
/// token. Tokens are kept between runs in the state folder, never shown.
@Suite struct OAuth2ProviderRunTests {
    /// A collection calling the provider's protected resource with the token of configuration `id`.
    static func collection(_ provider: PythonServer, auth: String, id: String,
                           privateAuth: String = "{}") throws -> TemporaryFolder {
        let folder = try TemporaryFolder("oauth")
        try folder.write("http-client.env.json", """
            {"dev": {"base": "\(provider.base)", "Security": {"Auth": {"\(id)": \(auth)}}}}
            """)
        try folder.write("http-client.private.env.json", """
            {"dev": {"Security": {"Auth": {"\(id)": \(privateAuth)}}}}
            """)
        try folder.write("api.http", """
            ### me
            GET {{base}}/api/me
            Authorization: Bearer {{$auth.token("\(id)")}}

            """)
        return folder
    }

    /// `count` requests, `me1`…, each calling the protected resource with the token of configuration `id`.
    static func requests(_ count: Int, id: String) -> String {
        (1...count).map { "### me\($0)\nGET {{base}}/api/me\nAuthorization: Bearer {{$auth.token(\"\(id)\")}}\n" }
            .joined(separator: "\n")
    }

    /// A provider, and a collection whose password-grant token (configuration `pw`) a first run fetched and
    /// kept and the provider then stopped taking; the first run's result.
    static func expiredPasswordToken() async throws -> (PythonServer, TemporaryFolder, ChildResult) {
        let provider = try await PythonServer("oauth_provider")
        let folder = try collection(provider, auth: """
            {"Type": "OAuth2", "Grant Type": "Password", "Token URL": "\(provider.base)/token",
             "Client ID": "service", "Username": "alice"}
            """, id: "pw", privateAuth: #"{"Client Secret": "s3rvice-secret", "Password": "wonderland"}"#)
        let first = try await run(folder)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        try await post(provider, "/test/expire", form: "")
        return (provider, folder, first)
    }

    static func run(_ folder: TemporaryFolder) async throws -> ChildResult {
        try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url,
                                 environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
    }

    /// The provider's count of token requests per grant type.
    static func stats(_ provider: PythonServer) async throws -> [String: Int] {
        let client = HTTPClient(transport: CurlTransport())
        let response = try await client.send(HTTPRequest(url: URL(string: provider.base + "/test/stats")!))
        let object = try JSONSerialization.jsonObject(with: try response.body.readAll()) as? [String: Any]
        return (object?["grants"] as? [String: Int] ?? [:]).merging(["unauthorized": object?["unauthorized"] as? Int ?? 0]) { $1 }
    }

    static func post(_ provider: PythonServer, _ path: String, form: String) async throws {
        let client = HTTPClient(transport: CurlTransport())
        _ = try await client.send(HTTPRequest(method: .post, url: URL(string: provider.base + path)!,
                                              headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                              body: .data(Data(form.utf8))))
    }

    /// Every token the state folder keeps, read from its files.
    static func keptTokens(_ folder: TemporaryFolder) throws -> [String] {
        let auth = folder.url.appendingPathComponent("state/courier/auth")
        return try FileManager.default.contentsOfDirectory(atPath: auth.path).flatMap { name -> [String] in
            let data = try Data(contentsOf: auth.appendingPathComponent(name))
            let entry = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let credentials = entry?["credentials"] as? [String: Any] ?? [:]
            return ["accessToken", "refreshToken"].compactMap { credentials[$0] as? String }
        }
    }

    @Test func clientCredentialsReachTheResourceAndTheKeptTokenServesTheNextRun() async throws {
        if let missing = try await PythonServer.missing(["authlib", "flask"]) { Issue.record("\(missing)"); return }
        // Given a Security.Auth client-credentials configuration whose secret is in the private file
        let provider = try await PythonServer("oauth_provider")
        defer { provider.stop() }
        let folder = try Self.collection(provider, auth: """
            {"Type": "OAuth2", "Grant Type": "Client Credentials", "Token URL": "\(provider.base)/token",
             "Client ID": "service", "Scope": "read"}
            """, id: "svc", privateAuth: #"{"Client Secret": "s3rvice-secret"}"#)
        // When it runs twice
        let first = try await Self.run(folder)
        let second = try await Self.run(folder)
        // Then both reach the resource as the client; the token was asked for once and kept
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(first.stdout.contains("\"client\": \"service\""), "\(first.stdout)")
        #expect(first.stderr.contains("auth: token 'svc' fetched (client credentials)"), "\(first.stderr)")
        #expect(!second.stderr.contains("fetched"), "\(second.stderr)")
        #expect(try await Self.stats(provider)["client_credentials"] == 1)
        // And the token file is the user's alone, and no output shows the token or the secret
        let auth = folder.url.appendingPathComponent("state/courier/auth")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: auth.path).first)
        let mode = try FileManager.default.attributesOfItem(atPath: auth.appendingPathComponent(file).path)[.posixPermissions]
        #expect((mode as? Int) == 0o600)
        let folderMode = try FileManager.default.attributesOfItem(atPath: auth.path)[.posixPermissions]
        #expect((folderMode as? Int) == 0o700)
        for secret in try Self.keptTokens(folder) + ["s3rvice-secret"] {
            #expect(!(first.stdout + first.stderr + second.stdout + second.stderr).contains(secret))
        }
    }

    @Test func requestsRunInParallelShareOneTokenFetch() async throws {
        if let missing = try await PythonServer.missing(["authlib", "flask"]) { Issue.record("\(missing)"); return }
        // Given six requests that all need the token of one client-credentials configuration, none kept yet
        let provider = try await PythonServer("oauth_provider")
        defer { provider.stop() }
        let folder = try Self.collection(provider, auth: """
            {"Type": "OAuth2", "Grant Type": "Client Credentials", "Token URL": "\(provider.base)/token",
             "Client ID": "service", "Scope": "read"}
            """, id: "svc", privateAuth: #"{"Client Secret": "s3rvice-secret"}"#)
        _ = try folder.write("api.http", Self.requests(6, id: "svc"))
        // When they run four at a time
        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev", "--jobs", "4"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        // Then all six reach the resource, and the token was asked for once
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\"client\": \"service\"").count == 7, "\(result.stdout)")
        #expect(try await Self.stats(provider)["client_credentials"] == 1)
    }

    @Test func theDeviceGrantShowsTheUserCodeAndPollsUntilTheUserApproves() async throws {
        if let missing = try await PythonServer.missing(["authlib", "flask"]) { Issue.record("\(missing)"); return }
        // Given a device-grant configuration (the provider asks the first poll to slow down)
        let provider = try await PythonServer("oauth_provider")
        defer { provider.stop() }
        let folder = try Self.collection(provider, auth: """
            {"Type": "OAuth2", "Grant Type": "Device Authorization", "Token URL": "\(provider.base)/token",
             "Device Auth URL": "\(provider.base)/device_authorization", "Client ID": "native"}
            """, id: "device")
        // When the run shows the code, polls (told to slow down, then to wait), and the user approves it
        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path]) { child in
            #expect(await child.stderr.wait { $0.contains("enter the code ") && $0.contains("(or open") })
            let line = child.stderr.text.split(separator: "\n").first { $0.contains("enter the code ") } ?? ""
            #expect(line.hasPrefix("To sign in, open \(provider.base)/device and enter the code "), "\(line)")
            let code = line.components(separatedBy: "enter the code ").last?.split(separator: " ").first.map(String.init) ?? ""
            let device = OAuth2Configuration.Grant.deviceCode.rawValue
            for _ in 0..<120 where try await Self.stats(provider)[device] ?? 0 < 2 {
                try await Task.sleep(for: .milliseconds(500))
            }
            try await Self.post(provider, "/device/approve", form: "user_code=\(code)")
        }
        // Then the request reaches the resource as the user, after polling through pending and slow_down
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"user\": \"alice\""), "\(result.stdout)")
        #expect(result.stderr.contains("auth: token 'device' fetched (device code)"), "\(result.stderr)")
        #expect(try await Self.stats(provider)[OAuth2Configuration.Grant.deviceCode.rawValue] ?? 0 >= 3)
        for token in try Self.keptTokens(folder) { #expect(!(result.stdout + result.stderr).contains(token)) }
    }

    @Test func theAuthorizationCodeWithPKCEComesBackToTheLoopbackRedirect() async throws {
        if let missing = try await PythonServer.missing(["authlib", "flask", "requests"]) {
            Issue.record("\(missing)")
            return
        }
        // Given an authorization-code configuration (the provider requires PKCE of a public client)
        let provider = try await PythonServer("oauth_provider")
        defer { provider.stop() }
        let folder = try Self.collection(provider, auth: """
            {"Type": "OAuth2", "Grant Type": "Authorization Code", "Auth URL": "\(provider.base)/authorize",
             "Token URL": "\(provider.base)/token", "Client ID": "native", "Scope": "profile", "PKCE": true}
            """, id: "web")
        // When the user follows the printed URL in a browser (here: an HTTP client) and consents
        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path,
                                                            "DISPLAY": ""]) { child in
            #expect(await child.stderr.wait { $0.contains("To sign in, open: ") && $0.contains("\n") })
            let line = child.stderr.text.split(separator: "\n").first { $0.contains("To sign in, open: ") } ?? ""
            let url = line.components(separatedBy: "open: ").last ?? ""
            #expect(url.contains("code_challenge_method=S256") && url.contains("redirect_uri=http://127.0.0.1:"),
                    "\(url)")
            let browser = try await CodeRunners.runPython(["-c", """
                import sys, requests
                session = requests.Session()
                form = session.get(sys.argv[1])
                page = session.post(sys.argv[1], data={"confirm": "yes"})
                print(form.status_code, page.status_code, page.text)
                """, url])
            #expect(browser.stdout.contains("200 200") && browser.stdout.contains("Signed in"), "\(browser.stdout)\(browser.stderr)")
        }
        // Then the code is exchanged with its verifier and the request reaches the resource as the user
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"user\": \"alice\""), "\(result.stdout)")
        #expect(result.stderr.contains("auth: token 'web' fetched (authorization code)"), "\(result.stderr)")
        for token in try Self.keptTokens(folder) { #expect(!(result.stdout + result.stderr).contains(token)) }
    }

    @Test func aTokenTheServerStopsTakingIsRefreshedOnceAndTheRequestSentAgain() async throws {
        if let missing = try await PythonServer.missing(["authlib", "flask"]) { Issue.record("\(missing)"); return }
        // Given a password-grant token kept from an earlier run, which the server then stops taking
        let (provider, folder, first) = try await Self.expiredPasswordToken()
        defer { provider.stop() }
        // When the next run sends it
        let second = try await Self.run(folder)
        // Then the 401 gets one refresh with the refresh token and one replay, which succeeds
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("\"user\": \"alice\""), "\(second.stdout)")
        #expect(second.stderr.contains("auth: token 'pw' refreshed with its refresh token"), "\(second.stderr)")
        let stats = try await Self.stats(provider)
        #expect(stats["password"] == 1 && stats["refresh_token"] == 1 && stats["unauthorized"] == 1, "\(stats)")
        for secret in try Self.keptTokens(folder) + ["s3rvice-secret", "wonderland"] {
            #expect(!(first.stdout + first.stderr + second.stdout + second.stderr).contains(secret))
        }
    }

    @Test func requestsRunInParallelOverSeveralClientsShareOneRefresh() async throws {
        if let missing = try await PythonServer.missing(["authlib", "flask"]) { Issue.record("\(missing)"); return }
        // Given a password-grant token kept from an earlier run, which the server then stops taking, and eight
        // requests that need it
        let (provider, folder, _) = try await Self.expiredPasswordToken()
        defer { provider.stop() }
        _ = try folder.write("api.http", Self.requests(8, id: "pw"))
        // When they run eight at a time, over a client per core
        let second = try await CourierCLI.run(["run", "api.http", "--env", "dev", "--jobs", "8"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        // Then all eight reach the resource as alice, after one refresh shared by every request that met the 401
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.components(separatedBy: "\"user\": \"alice\"").count == 9, "\(second.stdout)")
        let stats = try await Self.stats(provider)
        #expect(stats["password"] == 1 && stats["refresh_token"] == 1, "\(stats)")
    }
}

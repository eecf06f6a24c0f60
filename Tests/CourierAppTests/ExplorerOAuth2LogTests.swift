import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// A request naming `{{$auth.token("svc")}}` sent from the explorer: the Log shows the token request as an
/// attempt of its own, and the request's detail says why its token was fetched, then reused; the token is
/// never on screen.
@Suite struct ExplorerOAuth2LogTests {
    static func received(_ state: AppState) -> Bool {
        if case .received = state.response.phase { return state.responsePane?.isWorking == false }
        return false
    }

    @Test func theTokenRequestIsAnAttemptInTheLogAndTheDetailSaysWhyItWasFetched() async throws {
        // Given a collection whose request takes a client-credentials token from a loopback token endpoint
        let server = try LoopbackServer { request in
            request.path == "/token" ? .json(#"{"access_token": "screen-token-9876", "expires_in": 3600}"#)
                                     : .json(#"{"ok": true}"#)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("oauth-explorer")
        let base = server.baseURL.absoluteString
        try folder.write("http-client.env.json", """
            {"dev": {"base": "\(base)", "Security": {"Auth": {"svc": {"Type": "OAuth2",
             "Grant Type": "Client Credentials", "Token URL": "\(base)/token", "Client ID": "app",
             "Client Secret": "screen-secret-5432"}}}}}
            """)
        let file = try folder.write("api.http", "# @name me\nGET {{base}}/api/me\nAuthorization: Bearer {{$auth.token(\"svc\")}}\n")
        let driver = LiveExplorer(configuration: .init(transport: CurlTransport(), themeFolders: []),
                                  state: AppState(size: Size(width: 160, height: 48), collectionPath: file.path))
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is sent twice and the Log's last row is opened
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.received), "\(driver.screen)")
        #expect(await driver.press(Key(.enter), until: { Self.received($0) && $0.log.attempts.count >= 3 }),
                "\(driver.screen)")
        #expect(await driver.press(.char("4"), Key(.enter)))

        // Then the token endpoint's POST is a row of its own, the detail says the token was reused, the token
        // went out, and neither it nor the client's secret is on screen
        #expect(server.requestCount(path: "/token") == 1)
        let rows = driver.state.log.attempts.map { "\($0.method) \($0.path)" }
        #expect(rows == ["POST /token", "GET /api/me", "GET /api/me"], "\(rows)")
        #expect(driver.state.log.attempts[1].auth == ["token 'svc' fetched (client credentials)"])
        #expect(driver.state.log.attempts[2].auth.first?.hasPrefix("token 'svc' reused (expires in 5") == true,
                "\(driver.state.log.attempts[2].auth)")
        #expect(driver.screen.contains("token 'svc' reused (expires in"), "\(driver.screen)")
        #expect(!driver.screen.contains("screen-token-9876") && !driver.screen.contains("screen-secret-5432"))
    }
}

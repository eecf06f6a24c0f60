import CourierApp
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// The explorer's screen masks known secret values: a request sends a private token and a literal API key to
/// a server that echoes the request, and no pane shows either (body, headers, search, diff, log, errors)
/// until the user reveals them for the session.
@Suite("secrets on the explorer's screen", .serialized)
struct ExplorerSecretScreenTests {
    /// The explorer's state driven by its real effect runner against the demo server.
    final class Driver: LiveExplorer {
        let server: DemoServer
        let folder: URL
        let token = "tok-S3CRET-\(UUID().uuidString.prefix(8))"
        let apiKey = "key-S3CRET-\(UUID().uuidString.prefix(8))"

        init(size: Size = Size(width: 160, height: 48)) throws {
            server = try DemoServer.start()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-screen-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let base = server.baseURL.absoluteString.hasSuffix("/") ? String(server.baseURL.absoluteString.dropLast())
                                                                    : server.baseURL.absoluteString
            try Data("""
                ### echo
                # @name echo
                POST {{base}}/echo?note={{token}}
                Authorization: Bearer {{token}}
                X-Api-Key: \(apiKey)
                Content-Type: application/json

                {"note": "sent along: {{token}}"}

                ### signed
                # @name signed
                < {% throw new Error("cannot sign with " + request.environment.get("token")); %}
                GET {{base}}/echo

                ### socket
                # @name socket
                WEBSOCKET ws://127.0.0.1:\(server.port)/ws/echo

                {"token": "{{token}}"}

                """.utf8).write(to: folder.appendingPathComponent("api.http"))
            try Data(#"{"dev": {"base": "\#(base)"}}"#.utf8).write(to: folder.appendingPathComponent("http-client.env.json"))
            try Data(#"{"dev": {"token": "\#(token)"}}"#.utf8)
                .write(to: folder.appendingPathComponent("http-client.private.env.json"))
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: []),
                       state: AppState(size: size, collectionPath: folder.appendingPathComponent("api.http").path, environment: "dev"))
            state.timeZone = TimeZone(identifier: "UTC")!
        }

        func stop() {
            runner.shutdown()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }


        /// The secrets the screen shows, also in part (a narrow pane cuts a long value short).
        var leaks: [String] { [token, apiKey, "S3CRET"].filter { screen.contains($0) } }
    }

    static func received(_ state: AppState) -> Bool {
        if case .received = state.response.phase { return state.responsePane?.isWorking == false }
        return false
    }

    @Test func anEchoedTokenAndKeyAreMaskedOnEveryPaneUntilRevealed() async throws {
        // Given the explorer on a collection whose private environment holds a token
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When the request that sends the token and a literal API key to /echo is sent
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.received), "\(driver.screen)")

        // Then both went on the wire as they are
        let echo = try #require(driver.server.log.last { $0.path == "/echo" })
        #expect(echo.header("Authorization") == "Bearer \(driver.token)")
        #expect(echo.header("X-Api-Key") == driver.apiKey)
        // And the echoed body shows neither, only the mask
        #expect(driver.leaks.isEmpty, "\(driver.screen)")
        #expect(driver.screen.contains("REDACTED"), "\(driver.screen)")
        // And neither does the raw body, nor the headers tab
        for toggle in [Key.char("r"), .char("r"), .char("H"), .char("H")] {
            await driver.press(toggle)
            #expect(driver.leaks.isEmpty, "after \(toggle): \(driver.screen)")
        }

        // And the hex view's bytes, read back from every row, hold neither (a secret spans several rows)
        await driver.press(.char("x"))
        let hex = try #require(driver.state.responsePane?.source)
        hex.indexAll()
        let dumped = (0..<hex.lineCount).flatMap { index -> [UInt8] in
            let text = hex.line(index)
            guard let bar = text.firstIndex(of: "|") else { return [] }
            return text[text.index(text.startIndex, offsetBy: 10)..<bar].split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
        #expect(dumped.count > 100)
        for secret in [driver.token, driver.apiKey] {
            #expect(Data(dumped).range(of: Data(secret.utf8)) == nil, "hex view shows \(secret)")
        }
        #expect(driver.leaks.isEmpty, "hex: \(driver.screen)")
        await driver.press(.char("x"))

        // When the user searches for a piece of the token
        await driver.press(.char("/"))
        for character in "S3CRET" { await driver.press(.char(character)) }
        await driver.press(Key(.enter)) { $0.responsePane?.search?.isFinished == true }
        // Then nothing matches: the search reads what the screen shows
        #expect(driver.state.responsePane?.search?.hits.count == 0, "\(driver.screen)")
        await driver.press(Key(.escape))

        // When the request is sent again and diffed with the first response
        await driver.press(Key(.enter), until: Self.received)
        await driver.press(.char("d")) { $0.responsePane?.diff != nil }
        #expect(driver.leaks.isEmpty, "diff: \(driver.screen)")
        await driver.press(Key(.escape))

        // And the Log pane's attempt detail is opened
        await driver.press(.char("4"), Key(.enter))
        #expect(driver.screen.contains("Attempt 1"), "\(driver.screen)")
        #expect(driver.leaks.isEmpty, "log: \(driver.screen)")
        await driver.press(Key(.escape), .char("3"))

        // When the user reveals secrets for the session (F6)
        await driver.press(Key(.function(6)))
        // Then the body shows the token and the status bar says secrets are shown
        #expect(driver.screen.contains(driver.token), "\(driver.screen)")
        #expect(driver.screen.contains("secrets shown"), "\(driver.screen)")
        // And F6 again masks them
        await driver.press(Key(.function(6)))
        #expect(driver.leaks.isEmpty, "\(driver.screen)")
        #expect(!driver.screen.contains("secrets shown"), "\(driver.screen)")
    }

    @Test func aTokenEchoedOverAWebSocketIsMaskedInTheWebSocketPane() async throws {
        // Given the explorer after a request sent the token (so it is known to be secret)
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.received), "\(driver.screen)")

        // When the WebSocket request is opened (Enter connects it) and a message quoting the token is sent
        let open = await driver.press(.char("1"), .char("j"), .char("j"), Key(.enter)) {
            if case .open = $0.webSocketPane.connection { true } else { false }
        }
        #expect(open, "\(driver.screen)")
        await driver.press(.char("5"), .char("i"))
        for character in "login \(driver.token)" { await driver.press(.char(character)) }
        let echoed = await driver.press(Key(.enter)) { $0.webSocketPane.receivedCount >= 1 }

        // Then the message went out and came back, and the pane shows neither copy of the token
        #expect(echoed, "\(driver.screen)")
        #expect(driver.screen.contains("login REDACTED"), "\(driver.screen)")
        #expect(driver.leaks.isEmpty, "\(driver.screen)")
        // And revealing shows it
        await driver.press(Key(.escape))

        // When the saved message that names the private token is sent
        let saved = await driver.press(.char("s")) { $0.webSocketPane.receivedCount >= 2 }
        // Then the token itself went out and came back (never the mask), and the pane shows it masked
        #expect(saved, "\(driver.screen)")
        let texts = (0..<driver.state.webSocketPane.entries.count).map { driver.state.webSocketPane.entries[$0].text }
        #expect(texts.filter { $0 == #"{"token": "\#(driver.token)"}"# }.count == 2, "\(texts)")
        #expect(driver.leaks.isEmpty, "\(driver.screen)")

        // And revealing shows it
        await driver.press(Key(.function(6)))
        #expect(driver.screen.contains("login tok-S3CRET"), "\(driver.screen)")
        await driver.press(.char("D"))
    }

    @Test func thePaletteListsTheSwitchAndRunningItSaysSecretsAreShown() {
        // Given the explorer with the palette open, filtered to "secrets"
        var state = AppState(size: Size(width: 120, height: 30), collectionPath: "Collections", environment: "dev")
        state.press(.char(":"))
        state.type("secrets")
        let palette = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(palette.contains("show or mask secrets on screen"), "\(palette)")
        #expect(palette.contains("F6"), "\(palette)")

        // When it is run
        state.press(Key(.enter))

        // Then the status bar says secrets are shown, for as long as they are
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(state.secretsShown)
        #expect(screen.contains("secrets shown · env: dev"), "\(screen)")
    }

    @Test func aScriptErrorQuotingAPrivateValueIsMaskedInTheResponsePane() async throws {
        // Given the explorer with the request whose pre-request script fails quoting the private token
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is opened and sent (Enter in the tree), before any request has sent the token
        let failed = await driver.press(.char("1"), .char("j"), Key(.enter)) {
            if case .failed = $0.response.phase { true } else { false }
        }

        // Then the error is shown with the token masked
        #expect(failed, "\(driver.screen)")
        #expect(driver.state.editor.name == "signed", "\(driver.screen)")
        #expect(driver.screen.contains("cannot sign with REDACTED"), "\(driver.screen)")
        #expect(driver.leaks.isEmpty, "\(driver.screen)")
        // And revealing shows it
        await driver.press(Key(.function(6)))
        #expect(driver.screen.contains("cannot sign with \(driver.token)"), "\(driver.screen)")
    }
}

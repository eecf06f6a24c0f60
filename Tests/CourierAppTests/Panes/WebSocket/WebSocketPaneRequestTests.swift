import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import CourierWebSocket
import Foundation
import Synchronization
import Testing

/// The WebSocket pane connects as its request says: the handshake a loopback server received carries the
/// request's headers with the environment's values and the jar's cookies, the secrets are on no screen, and a
/// request that cannot be resolved connects nothing and says why.
@Suite("WebSocket pane connects as the request says")
struct WebSocketPaneRequestTests {
    /// The handshakes the server received, in order.
    final class Handshakes: Sendable {
        private let requests = Mutex<[DemoRequest]>([])
        func append(_ request: DemoRequest) { requests.withLock { $0.append(request) } }
        var all: [DemoRequest] { requests.withLock { $0 } }
    }

    /// The explorer's state driven by its real effect runner, on one `WEBSOCKET` request.
    final class Driver: LiveExplorer {
        let folder: TemporaryFolder
        let handshakes = Handshakes()
        let server: LoopbackUpgradeServer
        let cookies: CookieJarStore

        init(request: (_ url: String) -> String) throws {
            folder = try TemporaryFolder("ws-pane-request")
            let handshakes = self.handshakes
            // Records the handshake, then echoes as the demo server's /ws/echo does.
            server = try LoopbackUpgradeServer { fd, request, leftover in
                handshakes.append(request)
                DemoWebSocketRoutes.serve(fd: fd, request: request, leftover: leftover)
            }
            try folder.write("api.http", request(server.url("/ws/echo").absoluteString))
            // Not a private value: only its use in the Authorization header makes the token a secret.
            try folder.write("http-client.env.json", #"{"dev": {"token": "tok-5ecret-77"}}"#)
            cookies = CookieJarStore(directory: folder.url.appendingPathComponent("cookies"))
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: [], cookies: cookies),
                       state: AppState(size: Size(width: 160, height: 48),
                             collectionPath: folder.url.appendingPathComponent("api.http").path, environment: "dev"))
        }

        func stop() {
            runner.shutdown()
            server.stop()
        }

    }

    /// Open, and the echo of the subscription (which quotes the token) has arrived.
    static func echoed(_ count: Int) -> (AppState) -> Bool {
        { state in
            if case .open = state.webSocketPane.connection { return state.webSocketPane.receivedCount >= count }
            return false
        }
    }

    @Test func theHandshakeCarriesTheHeadersAndTheJarsCookieAndNoSecretShows() async throws {
        // Given a WEBSOCKET request with an Authorization header from the environment, a custom
        // header and a subscription quoting the token, and a session cookie in the environment's jar
        let driver = try Driver { url in
            """
            ### live
            WEBSOCKET \(url)
            Authorization: Bearer {{token}}
            X-Client: courier-pane

            # @subscribe
            {"auth": "{{token}}"}

            """
        }
        defer { driver.stop() }
        driver.cookies.jar("dev").store(setCookie: ["session=jar-c00kie-42; Path=/"],
                                        from: URL(string: "http://127.0.0.1:\(driver.server.port)/")!)
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When the request is opened and connected (Enter on it in the collection)
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.echoed(1)), "\(driver.screen)")

        // Then the server received the header with the environment's value, the custom header and the cookie
        let first = try #require(driver.handshakes.all.first)
        #expect(first.header("Authorization") == "Bearer tok-5ecret-77")
        #expect(first.header("X-Client") == "courier-pane")
        #expect(first.header("Cookie") == "session=jar-c00kie-42")
        // And neither the token (echoed back by the server) nor the cookie is on the screen
        let screen = driver.screen
        #expect(screen.contains("● open"), "\(screen)")
        #expect(!screen.contains("tok-5ecret-77") && !screen.contains("jar-c00kie-42"), "\(screen)")
        #expect(!screen.contains("TLS not verified"))
        #expect(screen.contains(#"{"auth":"#), "the echo is on the screen, its token masked: \(screen)")

        // When the pane connects again (its connect key), the request is resolved again and sent as before
        #expect(await driver.press(.char("o"), until: { _ in driver.handshakes.all.count == 2 }), "\(driver.screen)")
        #expect(await driver.run([], until: Self.echoed(1)), "\(driver.screen)")
        let second = try #require(driver.handshakes.all.last)
        #expect(second.header("Authorization") == "Bearer tok-5ecret-77")
        #expect(second.header("Cookie") == "session=jar-c00kie-42")
    }

    @Test func aPreRequestScriptRunsBeforeTheHandshakeAsCourierRunRunsIt() async throws {
        // Given a WEBSOCKET request whose pre-request script sets the token its header uses
        let driver = try Driver { url in
            """
            ### live
            < {%
                request.variables.set("session", "scr1pt-t0ken-55");
            %}
            WEBSOCKET \(url)
            Authorization: Bearer {{session}}

            """
        }
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When it is connected
        #expect(await driver.press(.char("3"), Key(.enter), until: { state in
            if case .open = state.webSocketPane.connection { true } else { false }
        }), "\(driver.screen)")
        // Then the handshake carried what the script set, and the screen does not show it
        #expect(driver.handshakes.all.first?.header("Authorization") == "Bearer scr1pt-t0ken-55")
        #expect(!driver.screen.contains("scr1pt-t0ken-55"))
    }

    @Test func savedMessagesGoOutAsTheSendPathResolvedThem() async throws {
        // Given a subscription message quoting a variable only the pre-request script sets
        let driver = try Driver { url in
            """
            ### live
            < {%
                request.variables.set("room", "r00m-from-script");
            %}
            WEBSOCKET \(url)

            # @subscribe
            {"room": "{{room}}"}

            """
        }
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When it is connected, and the saved message is sent again with s
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.echoed(1)), "\(driver.screen)")
        #expect(await driver.press(.char("s"), until: Self.echoed(2)), "\(driver.screen)")
        // Then both times the server echoed the script's value, not an empty one
        let pane = driver.state.webSocketPane
        let echoes = (0..<pane.entries.count).map { pane.entries[$0] }.filter { $0.kind == .incoming }.map(\.text)
        #expect(echoes.count == 2 && echoes.allSatisfy { $0.contains("r00m-from-script") }, "\(echoes)")
    }

    @Test func anUnknownVariableShowsInThePaneAndConnectsNothing() async throws {
        // Given a WEBSOCKET request whose header names a variable no environment defines
        let driver = try Driver { url in
            """
            ### live
            WEBSOCKET \(url)
            Authorization: Bearer {{missingToken}}

            """
        }
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is connected
        #expect(await driver.press(.char("3"), Key(.enter), until: { $0.webSocketPane.problem != nil }),
                "\(driver.screen)")

        // Then the pane says which variable is missing, and no connection reached the server
        let screen = driver.screen
        #expect(screen.contains("missingToken"), "\(screen)")
        #expect(driver.state.webSocketPane.connection == .idle)
        #expect(driver.server.connectionCount == 0)
    }

    @Test func insecureOnATLSConnectionShowsTLSNotVerifiedOnThePane() throws {
        // Given a resolved `# @insecure` WEBSOCKET request to a wss:// URL
        var request = HTTPRequest(method: .get, url: URL(string: "wss://api.example/live")!)
        request.insecure = true
        request.headers["Sec-WebSocket-Protocol"] = "chat, superchat"
        let settings = WebSocketConfiguration(request: request)
        #expect(settings.isUnverifiedTLS && settings.protocols == ["chat", "superchat"])
        #expect(!WebSocketConfiguration(request: HTTPRequest(method: .get, url: URL(string: "ws://h/")!)).isUnverifiedTLS)
        // When the pane hears it is connecting so, Then its status line says TLS is not verified
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "")
        state.focus = .webSocket
        state.zoomed = .webSocket
        _ = update(&state, .webSocketResolved(unverifiedTLS: settings.isUnverifiedTLS))
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(screen.contains("TLS not verified"), "\(screen)")
    }
}

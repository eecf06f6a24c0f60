import CourierDemo
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier run` sends the environment's cookie jar with a `WEBSOCKET` request's handshake, as it does with
/// an HTTP request: a login on the demo server sets the session cookie, and the loopback WebSocket server
/// records the handshake it received.
@Suite struct WebSocketCookieRunTests {
    final class Handshakes: Sendable {
        private let cookies = Mutex<[String?]>([])
        func append(_ cookie: String?) { cookies.withLock { $0.append(cookie) } }
        var all: [String?] { cookies.withLock { $0 } }
    }

    @Test func theHandshakeCarriesTheCookieALoginSetAndNotWithNoCookieJar() async throws {
        // Given a login on the demo server, then a WebSocket request to a server that records its handshake,
        // and the same request opting out of the jar
        let demo = try DemoServer.start()
        let handshakes = Handshakes()
        let sockets = try LoopbackUpgradeServer { fd, request, leftover in
            handshakes.append(request.header("Cookie"))
            DemoWebSocketRoutes.serve(fd: fd, request: request, leftover: leftover)
        }
        defer { demo.stop(); sockets.stop() }
        let folder = try TemporaryFolder("ws-cookie-run")
        try folder.write("live.http", """
            ### login
            POST {{base}}/session/login
            Content-Type: application/json

            {"username": "ada"}

            ### live
            WEBSOCKET {{ws}}/ws/echo

            hello

            ### anonymous
            # @no-cookie-jar
            WEBSOCKET {{ws}}/ws/echo

            hello

            """)
        let base = demo.baseURL.absoluteString.hasSuffix("/") ? String(demo.baseURL.absoluteString.dropLast())
                                                               : demo.baseURL.absoluteString
        try folder.write("http-client.env.json",
                         #"{"dev": {"base": "\#(base)", "ws": "ws://127.0.0.1:\#(sockets.port)"}}"#)
        try folder.write("state/.keep", "")

        // When the file runs
        let result = try await CourierCLI.run(["run", "live.http", "--env", "dev"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])

        // Then the first handshake carried the session cookie, the opted-out one none, and no output shows it
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let received = handshakes.all
        #expect(received.count == 2, "\(received)")
        #expect(received.first.flatMap { $0 }?.hasPrefix("courier_session=demo-") == true, "\(received)")
        #expect(received.last.flatMap { $0 } == nil, "\(received)")
        #expect(!result.stdout.contains("demo-") && !result.stderr.contains("demo-"))
    }
}

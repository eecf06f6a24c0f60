import CourierDemo
import Foundation
import Synchronization
import Testing
@testable import CourierWebSocket

/// Collects events from a callback for later assertions.
final class EventLog: Sendable {
    private let events = Mutex<[WebSocketEvent]>([])
    func append(_ event: WebSocketEvent) { events.withLock { $0.append(event) } }
    var all: [WebSocketEvent] { events.withLock { $0 } }
}

/// Waits (bounded) until `condition` holds; returns whether it did.
func eventually(seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return condition()
}

@Suite(.serialized) struct EchoEndpointTests {
    static let sizes = [1, 125, 126, 65_535, 65_536, 4 << 20]

    @Test(arguments: sizes)
    func textAndBinaryMessagesOfEverySizeComeBackIntact(size: Int) async throws {
        // Given a client connected to the demo echo endpoint
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(WebSocketConfiguration(url: server.url("/ws/echo")))
        // When a text and a binary message of `size` bytes are sent
        let text = String(decoding: (0..<size).map { UInt8(97 + $0 % 26) }, as: UTF8.self)
        let binary = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try client.send(text: text)
        try client.send(data: binary)
        // Then both come back unchanged, in order
        var iterator = client.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text(text))
        #expect(try await iterator.next() == .binary(binary))
        client.close()
        let info = await client.closed()
        #expect(info.code == .normal)
        #expect(info.wasClean)
        #expect(info.byUser)
    }

    @Test func fragmentedMessagesBothWaysAreReassembled() async throws {
        // Given a client that sends in 1,000-byte fragments and a server that echoes in 700-byte
        // fragments with a ping between the first two
        let server = try DemoServer.start()
        defer { server.stop() }
        let log = EventLog()
        var configuration = WebSocketConfiguration(url: server.url("/ws/echo?fragment=700"))
        configuration.fragmentSize = 1000
        let client = try await WebSocketClient.connect(configuration, onEvent: log.append)
        // When a 5,000-byte text with multi-byte characters is sent
        let text = String(repeating: "añ€😀", count: 500)
        try client.send(text: text)
        // Then it comes back whole (UTF-8 split across fragments is fine)
        var iterator = client.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text(text))
        client.close()
        _ = await client.closed()
    }

    @Test func pingIsAnsweredWithAPongAndARoundTrip() async throws {
        // Given an open connection
        let server = try DemoServer.start()
        defer { server.stop() }
        let log = EventLog()
        let client = try await WebSocketClient.connect(WebSocketConfiguration(url: server.url("/ws/echo")),
                                                       onEvent: log.append)
        // When the client pings
        client.ping()
        // Then a pong event with a round-trip time arrives
        #expect(await eventually {
            log.all.contains { if case .pong(let roundTrip?) = $0 { roundTrip >= 0 } else { false } }
        })
        client.close()
        _ = await client.closed()
    }

    @Test func keepalivePingsFlowOnTheInterval() async throws {
        // Given a 0.1 s keepalive interval
        let server = try DemoServer.start()
        defer { server.stop() }
        let log = EventLog()
        var configuration = WebSocketConfiguration(url: server.url("/ws/echo"))
        configuration.pingInterval = 0.1
        let client = try await WebSocketClient.connect(configuration, onEvent: log.append)
        // Then several pings go out and are answered
        #expect(await eventually {
            log.all.filter { if case .pong(.some) = $0 { true } else { false } }.count >= 3
        })
        client.close()
        _ = await client.closed()
    }

    @Test func serverCloseCodeAndReasonAreReported() async throws {
        // Given an echo endpoint that closes with 4001 after one message
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(WebSocketConfiguration(
            url: server.url("/ws/echo?close_after=1&code=4001&reason=enough")))
        // When one message is echoed
        try client.send(text: "one")
        var received: [WebSocketMessage] = []
        for try await message in client.messages { received.append(message) }
        // Then the stream ends normally and the close carries the server's code and reason
        #expect(received == [.text("one")])
        let info = await client.closed()
        #expect(info == WebSocketCloseInfo(code: WebSocketCloseCode(4001), reason: "enough", wasClean: true))
    }

    @Test func userCloseCodeIsEchoedByTheServer() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(WebSocketConfiguration(url: server.url("/ws/echo")))
        // When the user closes with going-away
        client.close(code: .goingAway, reason: "quit")
        // Then the handshake completes with that code
        let info = await client.closed()
        #expect(info.code == .goingAway)
        #expect(info.reason == "quit")
        #expect(info.wasClean && info.byUser)
    }

    @Test func subprotocolIsNegotiated() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        var configuration = WebSocketConfiguration(url: server.url("/ws/echo"))
        configuration.protocols = ["graphql-transport-ws", "json"]
        let client = try await WebSocketClient.connect(configuration)
        #expect(client.negotiatedProtocol == "graphql-transport-ws")
        client.close()
        _ = await client.closed()
    }

    @Test func cancellingTheConsumerClosesTheSocket() async throws {
        // Given a client whose messages are consumed by a task
        let server = try DemoServer.start()
        defer { server.stop() }
        let log = EventLog()
        let client = try await WebSocketClient.connect(WebSocketConfiguration(url: server.url("/ws/echo")),
                                                       onEvent: log.append)
        let consumer = Task { for try await _ in client.messages {} }
        // When the consumer is cancelled
        try await Task.sleep(nanoseconds: 50_000_000)
        consumer.cancel()
        // Then the connection closes with 1001
        let info = await client.closed()
        #expect(info.code == .goingAway)
    }

    @Test func refusedUpgradeReportsStatusAndBody() async throws {
        // Given a path that is not a WebSocket endpoint
        let server = try DemoServer.start()
        defer { server.stop() }
        // When connecting, Then the 404 and the server's message are reported
        do {
            _ = try await WebSocketClient.connect(WebSocketConfiguration(url: server.url("/ws/nothing")))
            Issue.record("connected to a missing endpoint")
        } catch {
            guard case .handshakeRejected(let status, _, let body) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(status == 404)
            #expect(String(decoding: body, as: UTF8.self) == "no WebSocket endpoint at /ws/nothing\n")
        }
    }

    @Test func aRefusedConnectionIsConnectionRefusedNamingThePort() async throws {
        // Given a port nothing listens on (a server started and stopped)
        let server = try DemoServer.start()
        let url = server.url("/ws/echo")
        server.stop()
        // Then connecting fails with connectFailed, a refused connection that names the port
        await #expect {
            _ = try await WebSocketClient.connect(WebSocketConfiguration(url: url))
        } throws: { error in
            guard let error = error as? WebSocketError, case .connectFailed = error else { return false }
            return error.kind == .connectionRefused && "\(error)" == "nothing listens on 127.0.0.1:\(url.port ?? 0)"
        }
    }
}

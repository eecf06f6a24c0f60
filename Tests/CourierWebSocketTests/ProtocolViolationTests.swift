import CourierTestSupport
import CourierDemo
import Foundation
import Synchronization
import Testing
@testable import CourierWebSocket

/// A scripted server that upgrades, sends `bytes`, then records what the client sent back.
final class ScriptedServer: Sendable {
    let server: LoopbackUpgradeServer
    let received = EventBytes()

    init(sending bytes: [UInt8]) throws {
        let received = self.received
        server = try LoopbackUpgradeServer { fd, request, _ in
            acceptUpgrade(fd, request)
            writeRaw(fd, bytes)
            received.set(readRaw(fd, seconds: 3))
        }
    }
}

/// Bytes written by one thread and read by the test.
final class EventBytes: Sendable {
    private let bytes = Mutex<[UInt8]?>(nil)
    func set(_ value: [UInt8]) { bytes.withLock { $0 = value } }
    var value: [UInt8]? { bytes.withLock { $0 } }
}



/// The close code of the first close frame in a client's (masked) bytes.
func firstCloseCode(in bytes: [UInt8]) -> UInt16? {
    var reader = MessageReader(role: .server)
    reader.append(bytes)
    while let item = try? reader.next() {
        if case .close(let code, _) = item { return code?.rawValue }
    }
    return nil
}

@Suite(.serialized) struct ProtocolViolationTests {
    func run(_ bytes: [UInt8], maxMessageSize: Int = 1 << 20) async throws -> (WebSocketCloseInfo, UInt16?) {
        let scripted = try ScriptedServer(sending: bytes)
        defer { scripted.server.stop() }
        var configuration = WebSocketConfiguration(url: scripted.server.url("/raw"))
        configuration.maxMessageSize = maxMessageSize
        let client = try await WebSocketClient.connect(configuration)
        let info = await client.closed()
        _ = await eventually { scripted.received.value != nil }
        return (info, firstCloseCode(in: scripted.received.value ?? []))
    }

    @Test func maskedFrameFromTheServerClosesWith1002() async throws {
        // Given a server that sends the RFC's masked "Hello"
        let (info, sent) = try await run([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        // Then the client reports and sends 1002
        #expect(info.code == .protocolError)
        #expect(sent == 1002)
        #expect(info.error != nil)
    }

    @Test func invalidUTF8TextClosesWith1007() async throws {
        let (info, sent) = try await run([0x81, 0x02, 0xC3, 0x28])
        #expect(info.code == .invalidPayload)
        #expect(sent == 1007)
    }

    @Test func tooLargeMessageClosesWith1009() async throws {
        let (info, sent) = try await run([0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 0, count: 256), maxMessageSize: 100)
        #expect(info.code == .messageTooBig)
        #expect(sent == 1009)
    }

    @Test func reservedBitClosesWith1002() async throws {
        let (info, sent) = try await run([0xC1, 0x01, 0x41])
        #expect(info.code == .protocolError)
        #expect(sent == 1002)
    }

    @Test func serverPingIsAnsweredWithTheSamePayload() async throws {
        // Given a server that pings with "abc" and then closes normally
        let scripted = try ScriptedServer(sending: [0x89, 0x03, 0x61, 0x62, 0x63, 0x88, 0x02, 0x03, 0xE8])
        defer { scripted.server.stop() }
        let client = try await WebSocketClient.connect(WebSocketConfiguration(url: scripted.server.url("/raw")))
        _ = await client.closed()
        _ = await eventually { scripted.received.value != nil }
        // Then the client's first frame is a pong with "abc", then the echoed close
        var reader = MessageReader(role: .server)
        reader.append(scripted.received.value ?? [])
        #expect(try reader.next() == .pong(Array("abc".utf8)))
        #expect(try reader.next() == .close(code: .normal, reason: ""))
    }

    @Test func missedPongEndsTheConnectionAbnormally() async throws {
        // Given a server that never answers (it only reads), and a fast keepalive
        let scripted = try ScriptedServer(sending: [])
        defer { scripted.server.stop() }
        var configuration = WebSocketConfiguration(url: scripted.server.url("/raw"))
        configuration.pingInterval = 0.05
        configuration.pongTimeout = 0.2
        let client = try await WebSocketClient.connect(configuration)
        // Then the connection ends with 1006 and a pong timeout
        let info = await client.closed()
        #expect(info.code == .abnormal)
        #expect(info.error == .pongTimeout(seconds: 0.2))
    }

    @Test func wrongAcceptKeyFailsTheHandshake() async throws {
        let server = try LoopbackUpgradeServer { fd, _, _ in
            writeRaw(fd, Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: nope\r\n\r\n".utf8))
            _ = readRaw(fd, seconds: 1)
        }
        defer { server.stop() }
        await #expect {
            _ = try await WebSocketClient.connect(WebSocketConfiguration(url: server.url("/raw")))
        } throws: { error in
            if case WebSocketError.handshakeInvalid = error { true } else { false }
        }
    }
}

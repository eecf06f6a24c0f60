import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierWebSocket

@Suite struct HandshakeTests {
    @Test func acceptValueIsTheOneFromRFC6455() {
        // Given the RFC's sample key (section 1.3), Then SHA-1 over key + GUID in base64 matches
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func generatedKeysAreSixteenRandomBytes() {
        let first = WebSocketHandshake(url: URL(string: "ws://a")!)
        let second = WebSocketHandshake(url: URL(string: "ws://a")!)
        #expect(Data(base64Encoded: first.key)?.count == 16)
        #expect(first.key != second.key)
    }

    @Test func requestCarriesUpgradeHeadersProtocolsAndCustomHeaders() throws {
        // Given a handshake with a query, a subprotocol list and a header trying to inject a line
        let handshake = WebSocketHandshake(url: URL(string: "wss://example.com:8443/feed?x=1")!,
                                           headers: ["Authorization": "Bearer t", "X-Evil": "a\r\nHost: b",
                                                     "Upgrade": "h2c"],
                                           protocols: ["graphql-ws", "json"], key: "dGhlIHNhbXBsZSBub25jZQ==")
        // When the request is written
        let text = String(decoding: try handshake.requestBytes(), as: UTF8.self)
        // Then it is exactly the upgrade request, the user's reserved header dropped and the line break removed
        let expected = [
            "GET /feed?x=1 HTTP/1.1", "Host: example.com:8443", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Protocol: graphql-ws, json", "Authorization: Bearer t", "X-Evil: aHost: b", "", "",
        ].joined(separator: "\r\n")
        #expect(text == expected)
    }

    @Test func schemesMapToHTTPForLibcurl() throws {
        #expect(try WebSocketHandshake.transportURL(for: URL(string: "ws://h:1/p?q=1")!).absoluteString == "http://h:1/p?q=1")
        #expect(try WebSocketHandshake.transportURL(for: URL(string: "wss://h/p")!).absoluteString == "https://h/p")
        #expect(throws: WebSocketError.badURL("ftp://h/")) { try WebSocketHandshake.transportURL(for: URL(string: "ftp://h/")!) }
    }

    @Test func responseHeadIsParsedAndLeftoverBytesKept() throws {
        // Given a 101 answer followed by the first frame in the same read
        let bytes = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
            + [0x81, 0x00]
        // When parsed
        let parsed = try #require(try ResponseHead.parse(bytes))
        // Then the status, headers and the head's length are right
        #expect(parsed.head.status == 101)
        #expect(parsed.head.headers["upgrade"] == "websocket")
        #expect(parsed.length == bytes.count - 2)
        #expect(try ResponseHead.parse(Array("HTTP/1.1 101 OK\r\n".utf8)) == nil)
    }

    @Test func validationChecksAcceptUpgradeAndSubprotocol() throws {
        let handshake = WebSocketHandshake(url: URL(string: "ws://h/")!, protocols: ["chat"], key: "dGhlIHNhbXBsZSBub25jZQ==")
        var head = ResponseHead(status: 101, headers: [
            "Upgrade": "websocket", "Connection": "keep-alive, Upgrade",
            "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Sec-WebSocket-Protocol": "chat",
        ])
        #expect(try handshake.validate(head) == "chat")
        head.headers["Sec-WebSocket-Protocol"] = "other"
        #expect(throws: WebSocketError.self) { try handshake.validate(head) }
        head.headers["Sec-WebSocket-Protocol"] = nil
        head.headers["Sec-WebSocket-Accept"] = "wrong="
        #expect(throws: WebSocketError.self) { try handshake.validate(head) }
    }

    @Test func reconnectDelaysGrowExponentiallyWithJitterAndACap() {
        let policy = ReconnectPolicy(initialDelay: 0.5, multiplier: 2, maxDelay: 4, jitter: 0.2)
        #expect(policy.delay(forAttempt: 0, random: 0.5) == 0.5)
        #expect(policy.delay(forAttempt: 2, random: 0.5) == 2)
        #expect(abs(policy.delay(forAttempt: 2, random: 0) - 1.6) < 1e-9)
        #expect(abs(policy.delay(forAttempt: 2, random: 1) - 2.4) < 1e-9)
        #expect(policy.delay(forAttempt: 10, random: 1) == 4)
        #expect(policy.shouldReconnect(after: WebSocketCloseInfo(code: .abnormal)))
        #expect(policy.shouldReconnect(after: WebSocketCloseInfo(code: .serviceRestart, wasClean: true)))
        #expect(!policy.shouldReconnect(after: WebSocketCloseInfo(code: .normal, wasClean: true)))
        #expect(!policy.shouldReconnect(after: WebSocketCloseInfo(code: .abnormal, byUser: true)))
        #expect(policy.shouldReconnect(after: WebSocketCloseInfo(code: .abnormal, error: .pongTimeout(seconds: 1))))
        #expect(!policy.shouldReconnect(after: WebSocketCloseInfo(
            code: .abnormal, error: .handshakeRejected(status: 404, headers: HTTPHeaders(), body: Data())
        )))
    }
}

import Foundation
import Testing
@testable import CourierDemo

@Suite("DemoServer connections and log")
struct DemoServerConnectionTests {
    @Test func theServerBindsLoopbackOnAnEphemeralPortAndStops() throws {
        // Given a server on port 0
        let server = try DemoServer.start()
        // Then it reports a real port and a matching base URL
        #expect(server.port != 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        server.stop()
        // And after stop nothing accepts on that port
        #expect(throws: RawClientError.self) { _ = try RawHTTPClient(port: server.port) }
        server.stop()
    }

    @Test func aHostThatIsNotAnIPv4AddressIsRefused() {
        #expect(throws: DemoError.invalidHost("example.com")) { try DemoServer.start(host: "example.com") }
    }

    @Test func twoRequestsOnOneConnectionShareItAndAreBothLogged() async throws {
        // Given a server and one client connection
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // When two requests go over it one after the other
        let first = try client.fetch("GET", "/users/1")
        let second = try client.fetch("GET", "/users/2")
        // Then both succeed on the same connection, with no Connection: close
        #expect(first.status == 200 && second.status == 200)
        #expect(first.header("Connection") == nil)
        #expect(server.connectionCount == 1)
        #expect(await eventually { server.completedCount(path: "/users/2") == 1 })
        #expect(Set(server.log.map(\.connection)) == [1])
        #expect(server.requestCount(path: "/users/1") == 1)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // When three requests are sent before reading anything
        client.send("GET /users/3 HTTP/1.1\r\nHost: x\r\n\r\nGET /status/418 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/4 HTTP/1.1\r\nHost: x\r\n\r\n")
        // Then the responses come back in the same order
        let statuses = try (0..<3).map { _ in try client.readResponse() }
        #expect(statuses.map(\.status) == [200, 418, 200])
        #expect(statuses[2].json["id"] as? Int == 4)
    }

    @Test func connectionCloseIsHonouredAndAnnounced() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.fetch("GET", "/users/1", headers: ["Connection: close"])
        #expect(response.header("Connection") == "close")
        // The server then closes: reading finds the end of the stream
        #expect(client.readToEnd().bytes.isEmpty)
    }

    @Test func http10WithoutKeepAliveGetsOneResponseThenClose() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /users/1 HTTP/1.0\r\n\r\n")
        let (bytes, _) = client.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Connection: close\r\n"))
    }

    @Test func aChunkedRequestBodyIsReassembled() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.json["body"] as? String == "hello world")
        #expect(response.json["body_length"] as? Int == 11)
    }

    @Test func expectContinueGets100BeforeTheBodyIsSent() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        #expect(interim.status == 100)
        client.send("ping")
        #expect(try client.readResponse().json["body"] as? String == "ping")
    }

    @Test func aBadRequestLineGets400AndAnOrderlyClose() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send("HELLO THERE\r\n\r\n")
        let (bytes, reset) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(!reset)
        #expect(await eventually { server.log.contains { $0.status == 400 && $0.completed } })
    }

    @Test func oversizedHeadersGet431() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "b", count: 40_000) + "\r\n\r\n")
        let (bytes, _) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
    }

    @Test func binaryGarbageIsAnsweredWith400AndClosedCleanly() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 37) } + [13, 10, 13, 10])
        let (bytes, _) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        // And the server still serves the next client
        #expect(try RawHTTPClient(port: server.port).fetch("GET", "/users/1").status == 200)
    }

    @Test func aClientThatLeavesDuringSlowIsLoggedAsAbortedPromptly() async throws {
        // Given a request for a response ten minutes away
        let server = try DemoServer.start()
        defer { server.stop() }
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        client?.request("GET", "/slow?ms=600000")
        #expect(await eventually { server.requestCount(path: "/slow") == 1 })
        #expect(server.log.first?.isPending == true)
        // When the client closes its connection
        client = nil
        // Then the server notices well before the delay ends
        #expect(await eventually { server.abortedCount(path: "/slow") == 1 })
        #expect(server.completedCount(path: "/slow") == 0)
        #expect(server.log.first?.status == 200)
    }

    @Test func aShortSlowRequestCompletes() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/slow?ms=50")
        #expect(response.json["slept_ms"] as? Int == 50)
        #expect(await eventually { server.completedCount(path: "/slow") == 1 })
        #expect(server.abortedCount(path: "/slow") == 0)
    }

    @Test func stopEndsLiveConnectionsAndSlowResponses() async throws {
        // Given an idle keep-alive connection and one waiting on /slow
        let server = try DemoServer.start()
        let idle = try RawHTTPClient(port: server.port)
        _ = try idle.fetch("GET", "/users/1")
        let waiting = try RawHTTPClient(port: server.port)
        waiting.request("GET", "/slow?ms=600000")
        #expect(await eventually { server.requestCount(path: "/slow") == 1 })
        // When the server stops
        server.stop()
        // Then both connections are closed by the server and the slow response is aborted
        #expect(idle.readToEnd().bytes.isEmpty)
        #expect(waiting.readToEnd().bytes.isEmpty)
        #expect(server.abortedCount(path: "/slow") == 1)
    }

    @Test func resetLogEmptiesTheLogButNotTheConnectionCount() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        _ = try RawHTTPClient(port: server.port).fetch("GET", "/users")
        #expect(await eventually { server.log.count == 1 })
        server.resetLog()
        #expect(server.log.isEmpty)
        #expect(server.connectionCount == 1)
        #expect(server.requestCount(path: "/users") == 0)
    }

    @Test func theLogKeepsMethodQueryHeadersAndStatus() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        _ = try RawHTTPClient(port: server.port).fetch("DELETE", "/users/999?why=test", headers: ["X-Probe: 1"])
        #expect(await eventually { server.completedCount(path: "/users/999") == 1 })
        let entry = try #require(server.log.first)
        #expect(entry.method == "DELETE")
        #expect(entry.query.first?.value == "test")
        #expect(entry.header("x-probe") == "1")
        #expect(entry.status == 404)
        #expect(entry.bytesSent > 0)
    }

    @Test func aWebSocketUpgradeIsHandedToTheWebSocketRoutesAndLogged() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        client?.send("GET /ws/echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                     + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        // Then the WebSocket side answers the handshake (whatever it decides)
        let answer = try client?.readResponse()
        #expect(answer.map { $0.status > 0 } == true)
        // And once the client leaves, the hand-over is logged as finished
        client = nil
        #expect(await eventually { server.completedCount(path: "/ws/echo") == 1 })
        #expect(server.log.first?.status == 101)
    }
}

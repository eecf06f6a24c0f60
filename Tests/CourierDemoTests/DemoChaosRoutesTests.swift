import Foundation
import Testing
@testable import CourierDemo

@Suite("Demo API: /chaos faults on the wire")
struct DemoChaosRoutesTests {
    /// Sends a GET and reads until the server ends the connection.
    private func rawExchange(_ server: DemoServer, _ target: String) throws -> (text: String, bytes: [UInt8], reset: Bool) {
        let client = try RawHTTPClient(port: server.port)
        client.request("GET", target)
        let (bytes, reset) = client.readToEnd()
        return (String(decoding: bytes, as: UTF8.self), bytes, reset)
    }

    @Test func resetBeforeClosesWithoutAnswering() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try rawExchange(server, "/chaos/reset-before")
        #expect(result.bytes.isEmpty)
        #expect(await eventually { server.completedCount(path: "/chaos/reset-before") == 1 })
        #expect(server.log.first?.status == 0)
    }

    @Test func resetMidBodySendsPartOfThePromisedBody() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try rawExchange(server, "/chaos/reset-mid-body")
        #expect(result.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let promised = result.text.components(separatedBy: "Content-Length: ").last?
            .prefix { $0.isNumber }.description ?? ""
        let bodyStart = try #require(RawHTTPClient.find([13, 10, 13, 10], in: result.bytes)) + 4
        #expect(result.bytes.count - bodyStart < Int(promised) ?? 0)
    }

    @Test func shortBodyEndsCleanlyBeforeContentLength() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try rawExchange(server, "/chaos/short-body")
        #expect(result.text.contains("Content-Length: 1000\r\n"))
        #expect(result.text.hasSuffix("only forty bytes of a thousand promised\n"))
        #expect(!result.reset)
    }

    @Test func truncatedChunkedStopsInsideAChunk() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try rawExchange(server, "/chaos/truncated-chunked")
        #expect(result.text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(result.text.hasSuffix("100\r\n4,5,6,7,8,"))
        #expect(!result.text.contains("\r\n0\r\n\r\n"))
    }

    @Test func badStatusLineIsNotHTTP() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try rawExchange(server, "/chaos/bad-status-line")
        #expect(result.text.hasPrefix("HTTP/1.1 banana"))
    }

    @Test func stallSendsHeadersThenNothingUntilTheClientLeaves() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        client?.request("GET", "/chaos/stall")
        let head = try client?.readResponseHead()
        #expect(head?.contains("Content-Length: 1024") == true)
        #expect(server.log.first?.isPending == true)
        client = nil
        #expect(await eventually { server.abortedCount(path: "/chaos/stall") == 1 })
    }

    @Test func dripSendsItsBytesOneByOne() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/chaos/drip?bytes=5&interval_ms=1")
        #expect(response.header("Content-Length") == "5")
        #expect(response.text == "drip,")
    }

    @Test func hugeHeadersAreAsLargeAsAsked() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/chaos/huge-headers?kb=64&line_kb=16")
        let huge = response.headers.filter { $0.name.hasPrefix("X-Huge-") }
        #expect(huge.count == 4)
        #expect(huge.map(\.value.count).reduce(0, +) == 64 * 1024)
    }

    @Test func redirectLoopPointsBackAtItself() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.fetch("GET", "/chaos/redirect-loop")
        #expect(first.status == 302)
        let next = try #require(first.header("Location"))
        #expect(next == "/chaos/redirect-loop?hop=1")
        #expect(try client.fetch("GET", next).header("Location") == "/chaos/redirect-loop?hop=2")
    }

    @Test func stormsAlwaysFail() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 {
            let unauthorized = try client.fetch("GET", "/chaos/401-storm", headers: ["Authorization: Bearer good"])
            #expect(unauthorized.status == 401)
            #expect(unauthorized.header("WWW-Authenticate")?.contains("invalid_token") == true)
            #expect(try client.fetch("GET", "/chaos/503-storm?retry_after=none").header("Retry-After") == nil)
        }
        #expect(server.requestCount(path: "/chaos/401-storm") == 3)
    }

    @Test func escapeCarriesTerminalControlInBodyAndHeaders() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try rawExchange(server, "/chaos/escape")
        let bodyStart = try #require(RawHTTPClient.find([13, 10, 13, 10], in: result.bytes)) + 4
        let head = Array(result.bytes[..<bodyStart]), body = Array(result.bytes[bodyStart...])
        // Headers hold ESC, a raw 8-bit CSI and invalid UTF-8
        #expect(RawHTTPClient.find(Array("X-Title: \u{1B}]0;".utf8), in: head) != nil)
        #expect(head.contains(0x9B))
        #expect(RawHTTPClient.find([0xFF, 0xFE], in: head) != nil)
        // The body holds OSC 52, NUL, a bidi override and a 10,000-character line
        #expect(RawHTTPClient.find(Array("\u{1B}]52;c;".utf8), in: body) != nil)
        #expect(body.contains(0))
        #expect(RawHTTPClient.find(Array("\u{202E}".utf8), in: body) != nil)
        let longest = body.split(separator: 0x0A).map(\.count).max() ?? 0
        #expect(longest >= 10_000)
        #expect(String(data: Data(body), encoding: .utf8) == nil)
    }

    @Test func escapeAsJSONIsValidJSONFullOfControlCharacters() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/chaos/escape?format=json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String])
        #expect(object["OSC 52 clipboard"]?.hasPrefix("\u{1B}]52;") == true)
    }

    @Test(arguments: ["array", "object"])
    func deepJSONIsNestedAsDeepAsAsked(kind: String) throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/chaos/deep-json?depth=20000&kind=\(kind)")
        let open: UInt8 = kind == "array" ? UInt8(ascii: "[") : UInt8(ascii: "{")
        #expect(response.body.count { $0 == open } == 20_000)
        #expect(response.header("Content-Length") == String(response.body.count))
        #expect(response.body.prefix(5) == (kind == "array" ? Array("[[[[[".utf8)[...] : Array("{\"a\":".utf8)[...]))
    }
}

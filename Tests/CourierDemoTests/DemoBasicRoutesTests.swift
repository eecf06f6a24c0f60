import CourierHTTP
import Foundation
import Testing
@testable import CourierDemo

@Suite("Demo API: echo, status, flaky, rate limits, index")
struct DemoBasicRoutesTests {
    @Test func echoReturnsTheRequestAsJSON() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch(
            "PUT", "/echo?a=1&b=two+words", headers: ["X-Token: t1", "Content-Type: application/json"],
            body: #"{"k":[1,2]}"#)
        let json = response.json
        #expect(json["method"] as? String == "PUT")
        #expect(json["path"] as? String == "/echo")
        #expect(json["query"] as? [String: String] == ["a": "1", "b": "two words"])
        #expect((json["headers"] as? [String: String])?["x-token"] == "t1")
        #expect(json["body"] as? String == #"{"k":[1,2]}"#)
        #expect((json["json"] as? [String: Any])?["k"] as? [Int] == [1, 2])
    }

    @Test func echoGivesBinaryBodiesAsBase64() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send(Array("POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\n".utf8) + [0xFF, 0x00, 0xFE])
        #expect(try client.readResponse().json["body_base64"] as? String == "/wD+")
    }

    @Test(arguments: [200, 201, 204, 301, 304, 400, 418, 422, 500, 503, 599])
    func statusAnswersWithTheCodeAsked(code: Int) throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/status/\(code)")
        #expect(response.status == code)
        if code == 204 || code == 304 {
            #expect(response.body.isEmpty)
        } else {
            #expect(response.json["status"] as? Int == code)
        }
        if code == 301 { #expect(response.header("Location") == "/echo") }
        if code == 503 { #expect(response.header("Retry-After") == "1") }
    }

    @Test func statusRefusesCodesOutsideTheRange() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        #expect(try RawHTTPClient(port: server.port).fetch("GET", "/status/700").status == 400)
    }

    @Test func flakyFailsTwiceInThreeWithRetryAfterAndKeysAreIndependent() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // When /flaky is called six times with one key, interleaved with another key
        var statuses: [Int] = []
        for _ in 0..<6 {
            statuses.append(try client.fetch("GET", "/flaky?key=a").status)
            _ = try client.fetch("GET", "/flaky?key=b")
        }
        // Then calls 1, 2 fail and 3 succeeds, again and again
        #expect(statuses == [503, 503, 200, 503, 503, 200])
        let failure = try client.fetch("GET", "/flaky?key=c")
        #expect(failure.header("Retry-After") == "1")
        #expect(try client.fetch("GET", "/flaky?key=d&retry_after=none").header("Retry-After") == nil)
    }

    @Test func rateLimitedIsAlways429WithRetryAfter() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 {
            let response = try client.fetch("GET", "/rate-limited?retry_after=2")
            #expect(response.status == 429)
            #expect(response.header("Retry-After") == "2")
        }
        let dated = try client.fetch("GET", "/rate-limited?retry_after_date=30").header("Retry-After") ?? ""
        let date = try #require(HTTPDate.parse(dated))
        #expect(date > Date())
    }

    @Test func unknownPathsAre404AndWrongMethods405WithAllow() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.fetch("GET", "/nope").status == 404)
        let wrong = try client.fetch("DELETE", "/users")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET, HEAD, POST")
    }

    @Test func headGetsTheHeadersOfGetWithoutABody() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let head = try client.fetch("HEAD", "/users/1")
        let get = try client.fetch("GET", "/users/1")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(get.body.count))
        // The connection stays usable: the HEAD response carried no body bytes
        #expect(try client.fetch("GET", "/users/3").status == 200)
    }

    @Test func theIndexListsEveryEndpoint() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/")
        let paths = (response.json["endpoints"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        for path in ["/users", "/users/{id}", "/search", "/slow", "/flaky", "/rate-limited", "/status/{code}",
                     "/auth/login", "/auth/refresh", "/me", "/large", "/etag", "/last-modified", "/cache/changing",
                     "/cache/vary", "/cache/no-store", "/cache/no-cache", "/cache/heuristic", "/echo", "/events",
                     "/ndjson", "/chaos/escape", "/chaos/deep-json", "/ws/echo", "/ws/ticker", "/ws/chaos"] {
            #expect(paths.contains(path), "missing \(path)")
        }
    }
}

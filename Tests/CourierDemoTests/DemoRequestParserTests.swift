import Foundation
import Testing
@testable import CourierDemo

/// Feeds text to a fresh parser and returns every complete request.
private func parseAll(_ text: String, limits: DemoRequestParser.Limits = .standard) throws -> [DemoRequest] {
    var parser = DemoRequestParser(limits: limits)
    parser.append(Array(text.utf8))
    var requests: [DemoRequest] = []
    while let request = try parser.next() { requests.append(request) }
    return requests
}

/// The error the parser throws for `text`, nil when it accepts it.
private func parseError(_ text: String, limits: DemoRequestParser.Limits = .standard) -> DemoError? {
    do {
        _ = try parseAll(text, limits: limits)
        return nil
    } catch {
        return error as? DemoError
    }
}

@Suite("DemoRequestParser")
struct DemoRequestParserTests {
    @Test func aSimpleGetIsParsedWithDecodedPathQueryAndHeadersInOrder() throws {
        // Given a GET with an encoded path, a query with + and %20, and two headers
        let text = "GET /users/caf%C3%A9?q=a+b&tag=x%20y&flag HTTP/1.1\r\nHost: demo\r\nX-Trace:  abc \r\n\r\n"
        // When it is parsed
        let requests = try parseAll(text)
        // Then one request carries every part, decoded
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/users/café")
        #expect(request.query.map(\.name) == ["q", "tag", "flag"])
        #expect(request.query.map(\.value) == ["a b", "x y", ""])
        #expect(request.headers.map(\.name) == ["Host", "X-Trace"])
        #expect(request.header("x-trace") == "abc")
        #expect(request.target == "/users/caf%C3%A9?q=a+b&tag=x%20y&flag")
        #expect(request.keepsAlive)
    }

    @Test func pipelinedRequestsComeOutOneByOneWithTheirBodies() throws {
        // Given two requests sent back to back, the first with a Content-Length body
        let text = "POST /echo HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /users HTTP/1.1\r\n\r\n"
        // When parsed
        let requests = try parseAll(text)
        // Then both arrive in order, the body belongs to the first
        #expect(requests.map(\.method) == ["POST", "GET"])
        #expect(requests[0].body == Data("hello".utf8))
        #expect(requests[1].body.isEmpty)
    }

    @Test func aRequestFedOneByteAtATimeIsTheSameAsFedAtOnce() throws {
        // Given a chunked request split into single bytes
        let text = "PUT /users/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-T: 1\r\n\r\n"
        var parser = DemoRequestParser()
        var requests: [DemoRequest] = []
        // When each byte is appended and the parser asked after every one
        for byte in Array(text.utf8) {
            parser.append([byte])
            if let request = try parser.next() { requests.append(request) }
        }
        // Then exactly one request with the de-chunked body comes out
        #expect(requests.count == 1)
        #expect(requests.first?.body == Data("Wikipedia".utf8))
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func bareLineFeedsAndLeadingEmptyLinesAreTolerated() throws {
        // Given a request with LF line endings after a stray CRLF
        let requests = try parseAll("\r\nGET / HTTP/1.0\nConnection: keep-alive\n\n")
        // Then it parses, and HTTP/1.0 with keep-alive keeps the connection
        #expect(requests.count == 1)
        #expect(requests.first?.version == "HTTP/1.0")
        #expect(requests.first?.keepsAlive == true)
        #expect(try parseAll("GET / HTTP/1.0\r\n\r\n").first?.keepsAlive == false)
        #expect(try parseAll("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n").first?.keepsAlive == false)
    }

    @Test func absoluteFormTargetsAreReducedToTheirPathAndQuery() throws {
        let request = try #require(try parseAll("GET http://example.com:8080/search?q=x HTTP/1.1\r\n\r\n").first)
        #expect(request.path == "/search")
        #expect(request.queryValue("q") == "x")
    }

    @Test func anIncompleteRequestWaitsForMoreBytes() async throws {
        var parser = DemoRequestParser()
        parser.append(Array("POST /echo HTTP/1.1\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\nabc".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.awaitingContinue)
        parser.append(Array("defghij".utf8))
        #expect(try parser.next()?.body == Data("abcdefghij".utf8))
        #expect(!parser.awaitingContinue)
    }

    @Test func bytesAfterAnUpgradeRequestAreHandedBackAsLeftover() throws {
        var parser = DemoRequestParser()
        parser.append(Array("GET /ws/echo HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\u{81}\u{05}".utf8))
        let request = try #require(try parser.next())
        #expect(request.isWebSocketUpgrade)
        #expect(parser.takeLeftover() == Array("\u{81}\u{05}".utf8))
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/1.1 extra\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
        "GET  / HTTP/1.1\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\r\n\r\n", "GET / FTP/1.0\r\n\r\n",
        "GET nothing HTTP/1.1\r\n\r\n",
    ])
    func malformedRequestLinesAreBadRequests(line: String) {
        let error = parseError(line)
        #expect(error?.status == 400, "\(line.debugDescription) gave \(String(describing: error))")
    }

    @Test func anUnknownHTTPVersionIsRefusedWith505() {
        #expect(parseError("GET / HTTP/2.0\r\n\r\n") == .unsupportedVersion("HTTP/2.0"))
        #expect(parseError("GET / HTTP/2.0\r\n\r\n")?.status == 505)
    }

    @Test func malformedHeaderFieldsAreBadRequests() {
        #expect(parseError("GET / HTTP/1.1\r\nNo colon here\r\n\r\n")?.status == 400)
        #expect(parseError("GET / HTTP/1.1\r\nName : space\r\n\r\n")?.status == 400)
        #expect(parseError("GET / HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n")
                == .badRequest(reason: .foldedHeader, detail: " folded"))
        #expect(parseError("GET / HTTP/1.1\r\n: empty\r\n\r\n")?.status == 400)
    }

    @Test func headersLargerThanTheLimitAre431EvenBeforeTheyEnd() {
        // Given limits of 1 KiB of headers
        let limits = DemoRequestParser.Limits(headerBytes: 1024)
        let big = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 2000)
        // Then a complete head over the limit and an unfinished one are both refused
        #expect(parseError(big + "\r\n\r\n", limits: limits) == .headersTooLarge(limit: 1024))
        #expect(parseError(big, limits: limits) == .headersTooLarge(limit: 1024))
        #expect(parseError("GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: 101) + "\r\n")?.status == 400)
    }

    @Test func aRequestLineLongerThanTheLimitIs414() {
        let limits = DemoRequestParser.Limits(requestLineBytes: 100)
        #expect(parseError("GET /" + String(repeating: "a", count: 200), limits: limits)?.status == 414)
    }

    @Test func bodyFramingErrorsAreRefused() {
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")?.status == 400)
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n")?.status == 400)
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")?.status == 400)
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n")?.status == 400)
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")
                == .badRequest(reason: .conflictingFraming, detail: "Content-Length with Transfer-Encoding"))
        #expect(parseError("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")?.status == 501)
        #expect(parseError("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")?.status == 400)
        #expect(parseError("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n")
                == .badRequest(reason: .chunkTerminator, detail: "X\\x0D\\x0A"))
        let small = DemoRequestParser.Limits(bodyBytes: 4)
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", limits: small) == .bodyTooLarge(limit: 4))
        #expect(parseError("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n", limits: small)?.status == 413)
    }

    @Test func aFailedParserKeepsFailing() {
        var parser = DemoRequestParser()
        parser.append(Array("BAD\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        #expect(throws: DemoError.self) { try parser.next() }
        #expect(throws: DemoError.self) { try parser.next() }
    }
}

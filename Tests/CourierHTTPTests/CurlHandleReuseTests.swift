import CCurl
import Foundation
import Testing
import CourierTestSupport
@testable import CourierHTTP

/// The transport keeps the easy handles of finished transfers and resets them for the next ones: what
/// the server receives on a reused handle is only what the new request says, and the safety settings
/// every handle gets (http and https only, verification on) hold on a reused one too.
@Suite struct CurlHandleReuseTests {
    static func recordingServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/headers":
                return .raw("HTTP/1.1 200 OK\r\nX-Spaced: \t padded value \t\r\nX-Empty:\r\n"
                            + "X-Twice: one\r\nx-twice: two\r\nX-Colons: a:b: c\r\nContent-Length: 2\r\n\r\nok")
            default: return .json("{}")
            }
        }
    }

    @Test func aReusedHandleSendsNothingOfTheRequestBeforeIt() async throws {
        // Given one transport that has sent a PUT with a body, custom headers, its own User-Agent and a timeout
        let server = try Self.recordingServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let put = HTTPRequest(method: .put, url: server.url("/first"),
                              headers: ["X-Probe": "41", "User-Agent": "probe/1", "Content-Type": "text/plain"],
                              body: .data(Data("payload".utf8)), timeout: .seconds(30))
        _ = try await transport.send(put, context: RequestContext())

        // When plain GETs and a bodiless POST follow on the same transport (and so on the same handle)
        _ = try await transport.send(HTTPRequest(url: server.url("/second")), context: RequestContext())
        _ = try await transport.send(HTTPRequest(method: .post, url: server.url("/third")), context: RequestContext())
        _ = try await transport.send(HTTPRequest(method: .head, url: server.url("/fourth")), context: RequestContext())
        _ = try await transport.send(HTTPRequest(url: server.url("/fifth")), context: RequestContext())

        // Then the server received each request as it was written, with nothing carried over
        let received = server.requests
        #expect(received.map(\.path) == ["/first", "/second", "/third", "/fourth", "/fifth"])
        #expect(received.map(\.method) == ["PUT", "GET", "POST", "HEAD", "GET"])
        #expect(String(decoding: received[0].body, as: UTF8.self) == "payload")
        #expect(received[0].headers["x-probe"] == "41" && received[0].headers["user-agent"] == "probe/1")
        for later in received.dropFirst() {
            #expect(later.headers["x-probe"] == nil, "\(later.path)")
            #expect(later.headers["content-type"] == nil, "\(later.path)")
            #expect(later.headers["user-agent"] == "courier/" + CourierVersion.current, "\(later.path)")
            #expect(later.body.isEmpty, "\(later.path)")
        }
        #expect(received[2].headers["content-length"] == "0")
        // And all of it went over the one kept-alive connection
        #expect(server.connectionCount == 1)
    }

    @Test func theSameRequestAgainGoesOutAsWrittenOnAHandleLeftSetUpForItAndAnotherAfterIt() async throws {
        // Given one transport sending the same POST with a header and a body three times, then a GET, then
        // the POST again (the handle is lent as it was left for the repeats, reset for the others)
        let server = try Self.recordingServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let post = HTTPRequest(method: .post, url: server.url("/same"), headers: ["X-Probe": "1"],
                               body: .data(Data("abc".utf8)))
        for _ in 0..<3 { _ = try await transport.send(post, context: RequestContext()) }
        _ = try await transport.send(HTTPRequest(url: server.url("/other")), context: RequestContext())
        let last = try await transport.send(post, context: RequestContext())

        // Then the server received each as written, and the last response is the last request's
        let received = server.requests
        #expect(received.map(\.method) == ["POST", "POST", "POST", "GET", "POST"])
        #expect(received.map(\.path) == ["/same", "/same", "/same", "/other", "/same"])
        for request in received where request.method == "POST" {
            #expect(String(decoding: request.body, as: UTF8.self) == "abc" && request.headers["x-probe"] == "1")
        }
        #expect(received[3].headers["x-probe"] == nil && received[3].body.isEmpty)
        #expect(last.status == 200 && last.url == server.url("/same"))
        #expect(server.connectionCount == 1)
    }

    @Test func aHandleSetUpForOneRequestFitsThatRequestOnly() {
        // Given the setup a GET with a header and a configuration left on a handle
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:1/a")!, headers: ["X-Probe": "1"])
        let configuration = CurlTransport.Configuration()
        let setup = CurlHandleSetup(request: request, configuration: configuration, headerList: nil)

        // Then the same request fits it, and one that differs in anything the setup reads does not
        #expect(setup.fits(request, configuration: configuration))
        var changed = [request, request, request, request, request]
        changed[0].headers["X-Probe"] = "2"
        changed[1].url = URL(string: "http://127.0.0.1:1/b")!
        changed[2].method = .post
        changed[3].insecure = true
        changed[4].timeout = .seconds(3)
        for other in changed { #expect(!setup.fits(other, configuration: configuration), "\(other)") }
        var agent = configuration
        agent.userAgent = "other/1"
        #expect(!setup.fits(request, configuration: agent))
    }

    @Test func aResetHandleKeepsTheSafetySettingsOfANewOne() throws {
        // Given a handle that was used with other options, then reset for the next transfer
        let easy = try #require(CurlEasy.make())
        defer { curl_easy_cleanup(easy) }
        courier_easy_setopt_str(easy, CURLOPT_USERAGENT, "leftover/1")
        courier_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        CurlEasy.reset(easy)

        // When it is pointed at a scheme other than http and https
        courier_easy_setopt_str(easy, CURLOPT_URL, "ftp://127.0.0.1:1/file")
        courier_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, 2000)
        let result = curl_easy_perform(easy)

        // Then libcurl refuses it before connecting, as it does on a new handle
        #expect(result == CURLE_UNSUPPORTED_PROTOCOL, "\(String(cString: curl_easy_strerror(result)))")
    }

    @Test func headerFieldsReadFromRawLinesAreTrimmedSplitAtTheFirstColonAndKeptInOrder() async throws {
        // Given a server writing odd but legal header lines
        let server = try Self.recordingServer()
        defer { server.stop() }

        // When the transport reads them (twice: a fresh handle, then a reused one)
        for _ in 0..<2 {
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/headers")), context: RequestContext())

            // Then values lose their surrounding spaces and tabs only, an empty value is kept, duplicates
            // stay in order and later colons belong to the value
            #expect(response.status == 200 && response.reason == "OK")
            #expect(response.headers["X-Spaced"] == "padded value")
            #expect(response.headers.contains("X-Empty") && response.headers["X-Empty"] == "")
            #expect(response.headers.values(for: "X-Twice") == ["one", "two"])
            #expect(response.headers["X-Colons"] == "a:b: c")
            #expect(response.headers.fields.map(\.name) == ["X-Spaced", "X-Empty", "X-Twice", "x-twice", "X-Colons",
                                                            "Content-Length"])
        }
    }
}

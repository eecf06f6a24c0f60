import CourierMessage
import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// `RequestContext.onHead` from the real libcurl transport against a loopback server: the final head
/// of each attempt, once, before the first body byte.
@Suite struct CurlTransportHeadTests {
    /// What the hooks saw, in order: `head STATUS` and `chunk` entries, and every head.
    final class HookLog: Sendable {
        private let entries = Mutex<[String]>([])
        private let seenHeads = Mutex<[ResponseHead]>([])

        var context: RequestContext {
            var context = RequestContext()
            context.onHead = { head in
                self.seenHeads.withLock { $0.append(head) }
                self.entries.withLock { $0.append("head \(head.status)") }
            }
            context.onChunk = { _ in self.entries.withLock { $0.append("chunk") } }
            return context
        }

        var all: [String] { entries.withLock { $0 } }
        var heads: [ResponseHead] { seenHeads.withLock { $0 } }
    }

    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/large":
                return LoopbackServer.Reply(headers: [("Content-Type", "text/plain"), ("X-Server", "loopback")],
                                            body: Data(repeating: 0x61, count: 300_000))
            case "/start": return LoopbackServer.Reply(status: 302, headers: [("Location", "/middle")])
            case "/middle": return LoopbackServer.Reply(status: 302, headers: [("Location", "/final")])
            case "/final": return .json("{\"final\":true}", headers: [("X-Final", "yes")])
            case "/continue":
                return .raw("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Final: yes\r\nConnection: close\r\n\r\nok")
            case "/empty": return LoopbackServer.Reply(status: 204)
            default: return .json("{\"ok\":true}")
            }
        }
    }

    @Test("The head comes once, with status, reason and headers, before the first chunk of a large body")
    func headComesOnceBeforeTheFirstChunk() async throws {
        // Given a server answering 300 KB, which curl hands over in several chunks
        let server = try Self.server()
        defer { server.stop() }
        let log = HookLog()
        // When it is fetched with both hooks set
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("/large")), context: log.context)
        // Then the head came first and once, the chunks after it, and it matches the response
        #expect(log.all.first == "head 200")
        #expect(log.all.filter { $0.hasPrefix("head") }.count == 1)
        #expect(log.all.filter { $0 == "chunk" }.count > 1)
        let head = try #require(log.heads.first)
        #expect(head.version == "HTTP/1.1")
        #expect(head.reason == "OK")
        #expect(head.headers["x-server"] == "loopback")
        #expect(head.headers["Content-Length"] == "300000")
        #expect(head.headers == response.headers)
    }

    @Test("After redirects only the final response's head is handed over")
    func onlyTheFinalHeadAfterRedirects() async throws {
        // Given two redirects before the answer
        let server = try Self.server()
        defer { server.stop() }
        let log = HookLog()
        // When the first URL is fetched, following redirects
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("/start")), context: log.context)
        // Then one head came: the final 200 with its own headers, none of the redirects'
        #expect(response.status == 200)
        #expect(log.all.first == "head 200")
        #expect(log.heads.count == 1)
        #expect(log.heads.first?.headers["X-Final"] == "yes")
        #expect(log.heads.first?.headers["Location"] == nil)
    }

    @Test("When redirects are not followed, the redirect is the final head")
    func theRedirectIsTheHeadWhenNotFollowed() async throws {
        // Given a redirect and a request that does not follow redirects
        let server = try Self.server()
        defer { server.stop() }
        let log = HookLog()
        var request = HTTPRequest(url: server.url("/start"))
        request.followRedirects = false
        // When it is sent
        let response = try await CurlTransport().send(request, context: log.context)
        // Then the 302 itself is the one head
        #expect(response.status == 302)
        #expect(log.heads.map(\.status) == [302])
        #expect(log.heads.first?.headers["Location"] == "/middle")
    }

    @Test("Interim 100 and 103 responses are skipped: the head is the final 200")
    func interimResponsesAreSkipped() async throws {
        // Given a server that sends 100 Continue and 103 Early Hints before its answer
        let server = try Self.server()
        defer { server.stop() }
        let log = HookLog()
        // When it is fetched
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("/continue")), context: log.context)
        // Then one head came, the 200's, without the interim responses' fields
        #expect(response.status == 200)
        #expect(log.all == ["head 200", "chunk"])
        #expect(log.heads.first?.headers["X-Final"] == "yes")
        #expect(log.heads.first?.headers["Link"] == nil)
    }

    @Test("A response without a body still hands over its head, for HEAD and for 204")
    func bodilessResponsesHaveAHead() async throws {
        // Given a 204 and a HEAD request
        let server = try Self.server()
        defer { server.stop() }
        let noContent = HookLog()
        let head = HookLog()
        // When both are sent
        _ = try await CurlTransport().send(HTTPRequest(url: server.url("/empty")), context: noContent.context)
        _ = try await CurlTransport().send(HTTPRequest(method: .head, url: server.url("/users")), context: head.context)
        // Then each hands over one head and no chunk
        #expect(noContent.all == ["head 204"])
        #expect(head.all == ["head 200"])
    }

    @Test("Through the client with retries, each attempt hands over its own head")
    func eachAttemptHandsOverItsHead() async throws {
        // Given a server that fails the first call with 503 and answers the second
        let calls = Mutex(0)
        let server = try LoopbackServer { _ in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            return call == 1 ? .json("{\"error\":\"busy\"}", status: 503) : .json("{\"ok\":true}")
        }
        defer { server.stop() }
        let client = HTTPClient(configuration: HTTPClient.Configuration(transport: CurlTransport(),
                                                                        sleeper: InstantSleeper()))
        let log = HookLog()
        // When a GET is sent through the client
        let response = try await client.send(HTTPRequest(url: server.url("/flaky")), context: log.context)
        // Then the caller saw the 503's head and body, then the 200's head and body
        #expect(response.status == 200)
        #expect(log.all == ["head 503", "chunk", "head 200", "chunk"])
    }
}

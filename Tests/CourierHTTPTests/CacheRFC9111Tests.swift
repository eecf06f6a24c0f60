import CourierMessage
import CourierTestSupport
import CourierHTTP
import Foundation
import Synchronization
import Testing

/// The cache's RFC 9111 (and RFC 5861) behaviours through the real stack: HTTPClient over CurlTransport
/// against a loopback server that sends the headers named and records every request it received.
/// The cache's clock is the test's, so staleness comes from moving it, never from waiting.
@Suite("Cache after RFC 9111 against a loopback server")
struct CacheRFC9111Tests {
    /// A loopback server answering with `handler`, a cache in a temporary folder, and a client.
    final class Setup: Sendable {
        let server: LoopbackServer
        let directory: TemporaryFolder
        let clock: CacheTestClock
        let cache: HTTPCacheMiddleware
        let client: HTTPClient

        init(clock: CacheTestClock = CacheTestClock(Date()),
             _ handler: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Reply) throws {
            self.clock = clock
            server = try LoopbackServer(handler: handler)
            directory = try TemporaryFolder("cache-tests")
            cache = HTTPCacheMiddleware(store: try HTTPCacheStore(directory: directory.url, inlineLimit: 16),
                                        clock: clock.function)
            client = HTTPClient(configuration: .init(transport: CurlTransport(), cache: cache, retry: nil))
        }

        deinit { server.stop() }

        func send(_ path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:],
                  url: URL? = nil) async throws -> HTTPResponse {
            try await client.send(HTTPRequest(method: method, url: url ?? server.url(path), headers: headers))
        }

        func count(_ path: String) -> Int { server.requestCount(path: path) }

        /// Every file of the cache folder, as text.
        var folderText: String {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
            return names.compactMap { try? String(contentsOf: directory.url.appendingPathComponent($0), encoding: .utf8) }
                .joined(separator: "\n")
        }
    }

    static func text(_ body: String, _ headers: [(String, String)], status: Int = 200) -> LoopbackServer.Reply {
        LoopbackServer.Reply(status: status, headers: headers, body: Data(body.utf8))
    }

    // MARK: - Section 5.1: Age

    @Test func anAgeWithANonNumericSuffixIsIgnoredAndTheResponseIsStillFresh() async throws {
        // Given a response fresh for one second whose Age is the invalid "1a"
        let setup = try Setup { _ in Self.text("aged", [("Cache-Control", "max-age=1"), ("Age", "1a")]) }
        let first = try await setup.send("/aged")
        // When it is asked for again at once
        let second = try await setup.send("/aged")
        // Then the Age was ignored as if absent: fresh from the cache, no second request
        #expect(first.cache.decision == .miss)
        #expect(second.cache.decision == .fresh)
        #expect(second.cacheText == "aged")
        #expect(setup.count("/aged") == 1)
    }

    // MARK: - Section 5.2.2.2: must-revalidate

    @Test func mustRevalidateOnAStaleResponseValidatesEvenWhenTheRequestAcceptsStale() async throws {
        let setup = try Setup { request in
            request.headers["if-none-match"] == "\"m1\""
                ? LoopbackServer.Reply(status: 304, headers: [("ETag", "\"m1\"")])
                : Self.text("must", [("Cache-Control", "max-age=1, must-revalidate"), ("ETag", "\"m1\"")])
        }
        _ = try await setup.send("/must")
        setup.clock.advance(30)
        // When a stale-tolerant request asks for it
        let second = try await setup.send("/must", headers: ["Cache-Control": "max-stale=3600"])
        // Then the server was asked to validate, and the 304 refreshed the stored response
        #expect(second.cache.decision == .revalidated)
        #expect(second.cacheText == "must")
        #expect(setup.count("/must") == 2)
        #expect(setup.server.requests.last?.headers["if-none-match"] == "\"m1\"")
    }

    // MARK: - RFC 5861: stale-while-revalidate

    @Test func staleWhileRevalidateServesTheStoredResponseThenValidatesInTheBackground() async throws {
        // Given a server that holds every validation until the test lets it go
        let release = DispatchSemaphore(value: 0)
        let setup = try Setup { request in
            guard request.headers["if-none-match"] == "\"s1\"" else {
                return Self.text("swr", [("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", "\"s1\"")])
            }
            // (a safety net so that a cache that waits fails instead of hanging)
            _ = release.wait(timeout: .now() + 120)
            return LoopbackServer.Reply(status: 304, headers: [("ETag", "\"s1\""), ("Cache-Control", "max-age=600")])
        }
        _ = try await setup.send("/swr")
        setup.clock.advance(10)
        // When it is asked for inside the stale-while-revalidate window
        let second = try await setup.send("/swr")
        // Then the stale response came back while the server still held the validation
        #expect(second.cache.decision == .stale)
        #expect(second.cacheText == "swr")
        #expect(await LoopbackServer.eventually { setup.count("/swr") == 2 })
        #expect(setup.server.completedCount(path: "/swr") == 1)
        // And a request meanwhile is served stale too, without a second validation
        #expect(try await setup.send("/swr").cache.decision == .stale)
        // And once the validation is answered, the refreshed response is fresh without a request
        release.signal()
        await setup.cache.finishBackgroundRevalidations()
        let third = try await setup.send("/swr")
        #expect(third.cache.decision == .fresh)
        #expect(third.cacheText == "swr")
        #expect(setup.count("/swr") == 2)
    }

    @Test func pastTheStaleWhileRevalidateWindowTheCallerWaitsForTheValidation() async throws {
        let setup = try Setup { request in
            request.headers["if-none-match"] == "\"w1\""
                ? LoopbackServer.Reply(status: 304, headers: [("ETag", "\"w1\"")])
                : Self.text("window", [("Cache-Control", "max-age=1, stale-while-revalidate=5"), ("ETag", "\"w1\"")])
        }
        _ = try await setup.send("/window")
        setup.clock.advance(60)
        let second = try await setup.send("/window")
        #expect(second.cache.decision == .revalidated)
    }

    // MARK: - Sections 4.2.4 and 5.2.2.2: a validation the server does not answer

    @Test(arguments: ["max-age=1, must-revalidate", "no-cache"])
    func aConnectionClosedInsteadOfAValidationIsA504NeverTheStaleResponse(_ control: String) async throws {
        // Given a stored response that must be validated, and a server that then hangs up without a word
        let setup = try Setup { request in
            request.headers["if-none-match"] == nil
                ? Self.text("secret-stale", [("Cache-Control", control), ("ETag", "\"c1\"")])
                : .raw("")
        }
        _ = try await setup.send("/closed")
        setup.clock.advance(30)
        // When it is asked for again
        let second = try await setup.send("/closed", headers: ["Cache-Control": "max-stale=3600"])
        // Then the answer is a 504 that says the validation failed, not the stored body, not another error
        #expect(second.status == 504)
        #expect(second.cache.decision == .unvalidated)
        #expect(second.cache.detail?.contains("could not revalidate") == true)
        #expect(second.cacheText.contains("Could not revalidate"))
        #expect(!second.cacheText.contains("secret-stale"))
        #expect(setup.server.requests.last?.headers["if-none-match"] == "\"c1\"")
    }

    // MARK: - Section 3.1: hop-by-hop fields

    @Test func hopByHopFieldsAreNeverStoredAndAChunkedBodyIsStoredWhole() async throws {
        // Given a chunked response carrying every hop-by-hop field and one that Connection names
        let head = "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nConnection: X-Trace, close\r\n"
            + "X-Trace: trace-secret\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\nUpgrade: h2c\r\n"
            + "Proxy-Connection: keep-alive\r\nX-Kept: yes\r\nTransfer-Encoding: chunked\r\n\r\n"
        let body = String(repeating: "chunk-", count: 10)
        let chunks = "1e\r\n" + String(body.prefix(30)) + "\r\n1e\r\n" + String(body.suffix(30)) + "\r\n0\r\n\r\n"
        let setup = try Setup { _ in .raw(head + chunks) }
        let first = try await setup.send("/chunked")
        #expect(first.cacheText == body)
        // When it is served from the cache
        let second = try await setup.send("/chunked")
        // Then the body is whole, the end-to-end field is kept, and no hop-by-hop field was stored
        #expect(second.cache.decision == .fresh)
        #expect(second.cacheText == body)
        #expect(second.headers["X-Kept"] == "yes")
        for name in ["Connection", "X-Trace", "Keep-Alive", "TE", "Upgrade", "Proxy-Connection", "Transfer-Encoding"] {
            #expect(second.headers[name] == nil, "\(name) was stored")
        }
        #expect(!setup.folderText.contains("trace-secret"))
        #expect(setup.count("/chunked") == 1)
    }

    // MARK: - Section 7.3: Set-Cookie (Courier's decision: no secret field is written to disk)

    @Test func setCookieReachesTheCallerButIsNeverWrittenToTheCache() async throws {
        let setup = try Setup { _ in
            Self.text("cookie", [("Cache-Control", "max-age=60"), ("Set-Cookie", "session=cookie-secret; HttpOnly"),
                                 ("X-Auth-Token", "token-secret")])
        }
        let first = try await setup.send("/cookie")
        let second = try await setup.send("/cookie")
        #expect(first.headers["Set-Cookie"] == "session=cookie-secret; HttpOnly")
        #expect(second.cache.decision == .fresh)
        #expect(second.headers["Set-Cookie"] == nil)
        #expect(second.headers["X-Auth-Token"] == nil)
        #expect(!setup.folderText.contains("cookie-secret"))
        #expect(!setup.folderText.contains("token-secret"))
        let stored = try #require(setup.cache.storedResponse(for: HTTPRequest(url: setup.server.url("/cookie"))))
        #expect(stored.headers["Set-Cookie"] == nil)
    }

    // MARK: - Sections 3.3 and 3.4: partial content

    /// A server that honours `Range: bytes=a-b` on "0123456789" with a 206, and sends the whole otherwise.
    static func rangeServer(_ request: LoopbackServer.Request) -> LoopbackServer.Reply {
        let whole = "0123456789"
        if let range = request.headers["range"], range.hasPrefix("bytes=") {
            let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
            let part = String(whole.dropFirst(bounds[0]).prefix(bounds[1] - bounds[0] + 1))
            return text(part, [("Cache-Control", "max-age=60"), ("Content-Range", "bytes \(bounds[0])-\(bounds[1])/10")],
                        status: 206)
        }
        return text(whole, [("Cache-Control", "max-age=60")])
    }

    @Test func aStored206NeverAnswersARequestWithoutRange() async throws {
        let setup = try Setup(Self.rangeServer)
        let partial = try await setup.send("/range", headers: ["Range": "bytes=2-4"])
        #expect(partial.status == 206)
        let whole = try await setup.send("/range")
        #expect(whole.status == 200)
        #expect(whole.cacheText == "0123456789")
        #expect(setup.count("/range") == 2)
    }

    @Test func aRangeRequestIsAnsweredFromAStored200WithA206BuiltFromIt() async throws {
        let setup = try Setup(Self.rangeServer)
        _ = try await setup.send("/range")
        let partial = try await setup.send("/range", headers: ["Range": "bytes=2-4"])
        #expect(partial.status == 206)
        #expect(partial.cacheText == "234")
        #expect(partial.headers["Content-Range"] == "bytes 2-4/10")
        #expect(partial.headers["Content-Length"] == "3")
        #expect(partial.cache.decision == .fresh)
        let suffix = try await setup.send("/range", headers: ["Range": "bytes=-3"])
        #expect(suffix.cacheText == "789")
        #expect(setup.count("/range") == 1)
        // A range the stored body cannot satisfy goes to the server
        _ = try await setup.send("/range", headers: ["Range": "bytes=1-2, 5-6"])
        #expect(setup.count("/range") == 2)
    }

    @Test func a206UpdatesTheStored200OnlyWhenItsStrongETagMatches() async throws {
        // Given a stored 200 with ETag "r1", stale at once, and a server whose 206 names "r1" or "r2"
        let setup = try Setup { request in
            guard let range = request.headers["range"] else {
                return Self.text("0123456789", [("Cache-Control", "max-age=1"), ("ETag", "\"r1\""), ("X-Version", "1")])
            }
            let tag = range == "bytes=0-1" ? "\"r1\"" : "\"r2\""
            return Self.text("01", [("Cache-Control", "max-age=600"), ("ETag", tag), ("X-Version", "2"),
                                    ("Content-Range", "bytes 0-1/10")], status: 206)
        }
        _ = try await setup.send("/part")
        setup.clock.advance(30)
        // When a 206 with another ETag comes back, nothing changes: the next GET still validates
        _ = try await setup.send("/part", headers: ["Range": "bytes=0-2"])
        #expect(setup.cache.storedResponse(for: HTTPRequest(url: setup.server.url("/part")))?.cache.decision == .stale)
        // When a 206 with the stored ETag comes back, its fields refresh the stored 200
        let partial = try await setup.send("/part", headers: ["Range": "bytes=0-1"])
        #expect(partial.status == 206)
        let whole = try await setup.send("/part")
        #expect(whole.cache.decision == .fresh)
        #expect(whole.status == 200)
        #expect(whole.headers["X-Version"] == "2")
        #expect(whole.cacheText == "0123456789")
        #expect(setup.count("/part") == 3)
    }

    // MARK: - Section 4.1: Vary

    @Test func severalVariantsOfOneURLAreKeptByTheirVaryValues() async throws {
        let setup = try Setup { request in
            Self.text("lang " + (request.headers["accept-language"] ?? "none") + String(repeating: ".", count: 20),
                      [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
        }
        for language in ["en", "fr", "en", "fr", "de", "fr"] {
            let response = try await setup.send("/vary", headers: ["Accept-Language": language])
            #expect(response.cacheText.hasPrefix("lang \(language)."))
        }
        #expect(setup.count("/vary") == 3)
        // A secret header that Vary selects is compared by digest and never written
        let keyed = try Setup { request in
            Self.text((request.headers["x-api-key"] == "key-secret-1" ? "for one" : "for two")
                      + String(repeating: ".", count: 20),
                      [("Cache-Control", "max-age=60"), ("Vary", "X-Api-Key")])
        }
        #expect(try await keyed.send("/k", headers: ["X-Api-Key": "key-secret-1"]).cacheText.hasPrefix("for one"))
        #expect(try await keyed.send("/k", headers: ["X-Api-Key": "key-secret-2"]).cacheText.hasPrefix("for two"))
        #expect(try await keyed.send("/k", headers: ["X-Api-Key": "key-secret-1"]).cache.decision == .fresh)
        #expect(keyed.count("/k") == 2)
        #expect(!keyed.folderText.contains("key-secret"))
        // And an unsafe request invalidates every variant
        _ = try await setup.send("/vary", method: .post)
        _ = try await setup.send("/vary", headers: ["Accept-Language": "fr"])
        #expect(setup.count("/vary") == 5)
    }

    // MARK: - Section 4: HEAD from a stored GET, POST reused for GET

    @Test func aHeadIsAnsweredFromAStoredGet() async throws {
        let setup = try Setup { _ in Self.text("head body", [("Cache-Control", "max-age=60"), ("X-Version", "7")]) }
        _ = try await setup.send("/head")
        let head = try await setup.send("/head", method: .head)
        #expect(head.status == 200)
        #expect(head.cache.decision == .fresh)
        #expect(head.headers["X-Version"] == "7")
        #expect(head.body.size == 0)
        #expect(setup.count("/head") == 1)
    }

    @Test func aFreshPostResponseWithItsOwnContentLocationAnswersALaterGet() async throws {
        let setup = try Setup { request in
            switch request.path {
            case "/doc": Self.text("posted doc", [("Cache-Control", "max-age=60"), ("Content-Location", "/doc")])
            default: Self.text("posted other", [("Cache-Control", "max-age=60")])
            }
        }
        _ = try await setup.send("/doc", method: .post)
        let doc = try await setup.send("/doc")
        #expect(doc.cache.decision == .fresh)
        #expect(doc.cacheText == "posted doc")
        #expect(setup.count("/doc") == 1)
        // Without Content-Location the POST says nothing about a GET
        _ = try await setup.send("/other", method: .post)
        let other = try await setup.send("/other")
        #expect(other.cache.decision == .miss)
        #expect(setup.count("/other") == 2)
    }

    // MARK: - Section 4.4: invalidation

    @Test func anUnsafeRequestInvalidatesItsURLAndSameOriginLocationsOnly() async throws {
        let elsewhere = try Setup { _ in Self.text("elsewhere", [("Cache-Control", "max-age=60")]) }
        let elsewhereURL = elsewhere.server.url("/c")
        let setup = try Setup { request in
            request.method == "POST"
                ? Self.text("done", [("Location", "/b"), ("Content-Location", elsewhereURL.absoluteString)], status: 201)
                : Self.text("page " + request.path, [("Cache-Control", "max-age=60")])
        }
        _ = try await setup.send("/a")
        _ = try await setup.send("/b")
        _ = try await setup.send("/c", url: elsewhereURL)
        // (the other origin's response lives in the same cache for this test)
        _ = try await setup.send("/a", method: .post)
        #expect(try await setup.send("/a").cache.decision == .miss)
        #expect(try await setup.send("/b").cache.decision == .miss)
        #expect(try await setup.send("/c", url: elsewhereURL).cache.decision == .fresh)
        #expect(elsewhere.count("/c") == 1)
    }
}

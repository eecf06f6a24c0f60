import CourierTestSupport
import CourierHTTP
import Foundation
import Testing

/// Cases the http-tests cache-tests suite checks (`make conformance`), each through the real stack:
/// HTTPClient over CurlTransport with the cache, against a loopback server, on the test's own clock.
@Suite("Cache cases from the cache-tests suite")
struct CacheSuiteCasesTests {
    typealias Setup = CacheRFC9111Tests.Setup

    static func text(_ body: String, _ headers: [(String, String)], status: Int = 200) -> LoopbackServer.Reply {
        CacheRFC9111Tests.text(body, headers, status: status)
    }

    // MARK: - Age (RFC 9111 sections 4.2.3 and 5.1)

    @Test func anAgeListedAsOldThenZeroMakesTheStoredResponseStale() async throws {
        // Given a response fresh for an hour whose one Age line says "7200, 0"
        let setup = try Setup { _ in Self.text("aged", [("Cache-Control", "max-age=3600"), ("Age", "7200, 0")]) }
        _ = try await setup.send("/aged")
        // When it is asked for again at once
        let second = try await setup.send("/aged")
        // Then the first member counted: two hours old, stale, and the server was asked again
        #expect(second.cache.decision != .fresh)
        #expect(setup.count("/aged") == 2)
    }

    @Test func aResponseDatedTheSecondItArrivedInIsFreshForItsWholeMaxAge() async throws {
        // Given a clock 0.9 s into a second, and a server whose Date names that second, as servers do
        let clock = CacheTestClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 0.9))
        let setup = try Setup(clock: clock) { _ in
            Self.text("short", [("Cache-Control", "max-age=1"), ("Date", HTTPDate.format(clock.now))])
        }
        _ = try await setup.send("/short")
        // When it is asked for again half a second later
        setup.clock.advance(0.5)
        let second = try await setup.send("/short")
        // Then it is half a second old, not 1.4 s: fresh, from the cache
        #expect(second.cache.decision == .fresh)
        #expect(setup.count("/short") == 1)
    }

    // MARK: - RFC 8246: immutable

    @Test func aReloadLeavesAFreshImmutableResponseAloneButAForceReloadAndStalenessValidate() async throws {
        // Given a stored response fresh for an hour and marked immutable
        let setup = try Setup { request in
            request.headers["if-none-match"] == "\"i1\""
                ? LoopbackServer.Reply(status: 304, headers: [("ETag", "\"i1\"")])
                : Self.text("immutable", [("Cache-Control", "max-age=3600, immutable"), ("ETag", "\"i1\"")])
        }
        _ = try await setup.send("/immutable")
        // When it is reloaded (max-age=0 on the request), then it is served without a request
        let reloaded = try await setup.send("/immutable", headers: ["Cache-Control": "max-age=0"])
        #expect(reloaded.cache.decision == .fresh)
        #expect(setup.count("/immutable") == 1)
        // When it is force-reloaded (no-cache), then it is validated
        #expect(try await setup.send("/immutable", headers: ["Cache-Control": "no-cache"]).cache.decision == .revalidated)
        #expect(setup.count("/immutable") == 2)
        // And once stale, a reload validates it too
        setup.clock.advance(7200)
        #expect(try await setup.send("/immutable", headers: ["Cache-Control": "max-age=0"]).cache.decision == .revalidated)
        #expect(setup.count("/immutable") == 3)
    }

    // MARK: - Section 5.2.2.3: must-understand

    @Test func mustUnderstandStoresAnUnderstoodStatusDespiteNoStoreAndNoOtherStatus() async throws {
        // Given a 200 and a 599, both "max-age=3600, no-store, must-understand"
        let setup = try Setup { request in
            Self.text("understood", [("Cache-Control", "max-age=3600, no-store, must-understand")],
                      status: request.path.hasPrefix("/599") ? 599 : 200)
        }
        // When each is asked for twice
        for path in ["/200", "/200", "/599", "/599"] { _ = try await setup.send(path) }
        // Then the 200 was stored (its caching rules are implemented here) and the 599 was not
        #expect(setup.count("/200") == 1)
        #expect(setup.count("/599") == 2)
    }

    // MARK: - Section 4.2.2: heuristic freshness

    @Test func anUnknownStatusMarkedPublicIsReusedWithHeuristicFreshness() async throws {
        // Given a 599 marked public, last modified a day ago, without explicit freshness
        let setup = try Setup { _ in
            Self.text("heuristic", [("Cache-Control", "public"),
                                    ("Last-Modified", HTTPDate.format(Date().addingTimeInterval(-86_400)))], status: 599)
        }
        _ = try await setup.send("/heuristic")
        // When it is asked for again, then it comes from the cache
        let second = try await setup.send("/heuristic")
        #expect(second.cache.decision == .fresh)
        #expect(second.status == 599)
        #expect(setup.count("/heuristic") == 1)
    }

    // MARK: - Section 4.1: Vary

    @Test func acceptLanguageInAnotherOrderOrCaseSelectsTheStoredResponse() async throws {
        // Given a response that varies on Accept-Language, stored for "en, de"
        let setup = try Setup { _ in
            Self.text("negotiated", [("Cache-Control", "max-age=3600"), ("Vary", "Accept-Language")])
        }
        _ = try await setup.send("/lang", headers: ["Accept-Language": "en, de"])
        // When the same languages are asked for in another order and case
        let reordered = try await setup.send("/lang", headers: ["Accept-Language": "de, en"])
        let recased = try await setup.send("/lang", headers: ["Accept-Language": "eN, De"])
        // Then both are answered from the cache; another language is not
        #expect(reordered.cache.decision == .fresh)
        #expect(recased.cache.decision == .fresh)
        #expect(try await setup.send("/lang", headers: ["Accept-Language": "fr"]).cache.decision == .miss)
        #expect(setup.count("/lang") == 2)
    }

    // MARK: - Content codings libcurl does not know

    @Test func aBodyInAnUnknownContentCodingIsStoredAsItCameWithItsContentEncoding() async throws {
        // Given a server that labels a plain body with a Content-Encoding that is no coding at all
        let setup = try Setup { _ in
            Self.text("plain text", [("Cache-Control", "max-age=3600"), ("Content-Encoding", "UTF-8")])
        }
        // When it is fetched, then served from the cache
        let first = try await setup.send("/labelled")
        let second = try await setup.send("/labelled")
        // Then both carry the body as sent, the field, and the note saying it was not decoded
        #expect(first.cacheText == "plain text")
        #expect(second.cache.decision == .fresh)
        #expect(second.cacheText == "plain text")
        #expect(second.headers["Content-Encoding"] == "UTF-8")
        #expect(second.contentEncodingNote?.contains("'UTF-8'") == true)
        #expect(setup.count("/labelled") == 1)
    }

    @Test func aBodyInAnUnknownTransferCodingPassesAndTheHopByHopFieldIsNotStored() async throws {
        // Given a body in a transfer coding that is not chunked: it ends when the connection closes
        let setup = try Setup { _ in
            .raw("HTTP/1.1 200 OK\r\nCache-Control: max-age=3600\r\nTransfer-Encoding: x-unheard-of\r\n\r\nframed")
        }
        let first = try await setup.send("/framed")
        let second = try await setup.send("/framed")
        #expect(first.cacheText == "framed")
        #expect(second.cache.decision == .fresh)
        #expect(second.cacheText == "framed")
        #expect(second.headers["Transfer-Encoding"] == nil)
    }
}

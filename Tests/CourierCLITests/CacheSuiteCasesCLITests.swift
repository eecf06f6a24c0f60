import CourierTestSupport
import Foundation
import Testing

/// Cases of the http-tests cache-tests suite (`make conformance`) through the built binary, as the suite runs
/// it: one `courier send --cache-dir DIR` per request against a loopback server, counting what reached it.
@Suite struct CacheSuiteCasesCLITests {
    /// Sends `path` through a fresh cache folder `count` times, with `headers` on the later sends, and
    /// returns the last answer's JSON and how many requests reached the server.
    static func sendTwice(_ replyHeaders: [(String, String)], laterHeaders: [String] = [],
                          firstHeaders: [String] = []) async throws -> (last: [String: Any], requests: Int) {
        let server = try LoopbackServer { _ in LoopbackServer.Reply(headers: replyHeaders, body: Data("stored".utf8)) }
        defer { server.stop() }
        let folder = try TemporaryFolder("cache-tests")
        let arguments = ["send", server.url("/case").absoluteString, "--cache-dir", folder.url.path, "--json",
                         "--retry", "0"]
        _ = try await CourierCLI.run(arguments + firstHeaders.flatMap { ["-H", $0] })
        let last = try await CourierCLI.run(arguments + laterHeaders.flatMap { ["-H", $0] })
        return (try CourierCLI.json(last.stdout), server.requestCount(path: "/case"))
    }

    @Test func anAgeListedAsOldThenZeroIsStale() async throws {
        let (last, requests) = try await Self.sendTwice([("Cache-Control", "max-age=3600"), ("Age", "7200, 0")])
        #expect(last["cache"] as? String != "fresh")
        #expect(requests == 2)
    }

    @Test func anExpiresInCapitalsGivesFreshness() async throws {
        let (last, requests) = try await Self.sendTwice([("Expires", "THU, 18 AUG 2050 02:01:18 GMT")])
        #expect(last["cache"] as? String == "fresh")
        #expect(requests == 1)
    }

    @Test func aReloadLeavesAFreshImmutableResponseAlone() async throws {
        let (last, requests) = try await Self.sendTwice([("Cache-Control", "max-age=3600, immutable")],
                                                        laterHeaders: ["Cache-Control: max-age=0"])
        #expect(last["cache"] as? String == "fresh")
        #expect(requests == 1)
    }

    @Test func acceptLanguageInAnotherOrderAndCaseSelectsTheStoredResponse() async throws {
        let (last, requests) = try await Self.sendTwice([("Cache-Control", "max-age=3600"), ("Vary", "Accept-Language")],
                                                        laterHeaders: ["Accept-Language: DE, en"],
                                                        firstHeaders: ["Accept-Language: en, de"])
        #expect(last["cache"] as? String == "fresh")
        #expect(requests == 1)
    }

    @Test func aResponseMarkedMustUnderstandWithAKnownStatusIsStoredDespiteNoStore() async throws {
        let (last, requests) = try await Self.sendTwice([("Cache-Control", "max-age=3600, no-store, must-understand")])
        #expect(last["cache"] as? String == "fresh")
        #expect(requests == 1)
    }
}

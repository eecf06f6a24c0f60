import CourierTestSupport
import Foundation
import Testing

/// What `courier send --cache-dir` tells a person and a script about the cache's decision, and that a
/// stale-while-revalidate answer still gets its background validation before the process exits.
@Suite struct CacheSendOutputTests {
    @Test func textSaysTheDecisionOnOneLineAndJSONCarriesACacheReason() async throws {
        // Given a response fresh for ten minutes and an empty cache folder
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Cache-Control", "max-age=600")], body: Data("hello".utf8))
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("cache-tests")
        let arguments = ["send", server.url("/greeting").absoluteString, "--cache-dir", folder.url.path]
        // When it is sent for people twice, then once for scripts
        let first = try await CourierCLI.run(arguments)
        let second = try await CourierCLI.run(arguments)
        let json = try CourierCLI.json(try await CourierCLI.run(arguments + ["--json"]).stdout)
        // Then the text says what the cache did, and the JSON says why on one line
        #expect(first.stdout.contains("\ncache: miss"))
        #expect(second.stdout.contains("\ncache: fresh (age "))
        #expect(json["cache"] as? String == "fresh")
        let reason = try #require(json["cache_reason"] as? String)
        #expect(reason.contains("fresh") && !reason.contains("\n"))
        #expect(server.requestCount(path: "/greeting") == 1)
        // And without a cache there is no cache line
        let plain = try await CourierCLI.run(["send", server.url("/greeting").absoluteString])
        #expect(!plain.stdout.contains("\ncache:"))
    }

    @Test func aStaleWhileRevalidateAnswerIsValidatedBeforeSendExits() async throws {
        // Given a stored response that is stale at once but may be served while it is validated
        let server = try LoopbackServer { request in
            request.headers["if-none-match"] == "\"v1\""
                ? LoopbackServer.Reply(status: 304, headers: [("ETag", "\"v1\"")])
                : LoopbackServer.Reply(headers: [("Cache-Control", "max-age=0, stale-while-revalidate=600"),
                                                 ("ETag", "\"v1\"")], body: Data("swr".utf8))
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("cache-tests")
        let arguments = ["send", server.url("/swr").absoluteString, "--cache-dir", folder.url.path, "--json"]
        _ = try await CourierCLI.run(arguments)
        // When it is sent again
        let second = try CourierCLI.json(try await CourierCLI.run(arguments).stdout)
        // Then it came from the cache, and the validation reached the server before the process ended
        #expect(second["cache"] as? String == "stale")
        #expect(second["body"] as? String == "swr")
        #expect(server.requestCount(path: "/swr") == 2)
        #expect(server.requests.last?.headers["if-none-match"] == "\"v1\"")
    }
}

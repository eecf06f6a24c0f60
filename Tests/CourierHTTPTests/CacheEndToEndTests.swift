import CourierMessage
import CourierTestSupport
import CourierDemo
import CourierHTTP
import Foundation
import Testing

/// The cache in the real pipeline: HTTPClient over CurlTransport against the embedded demo server,
/// with the server's request log as the witness of what went over the wire.
@Suite("Cache end to end against the demo server")
struct CacheEndToEndTests {
    /// A server, a client with a cache in a temporary folder, and cleanup.
    final class Setup: Sendable {
        let server: DemoServer
        let directory: TemporaryFolder
        let client: HTTPClient
        let cache: HTTPCacheMiddleware
        let transport: CurlTransport

        init() throws {
            server = try DemoServer.start()
            directory = try TemporaryFolder("cache-tests")
            cache = try HTTPCacheMiddleware(directory: directory.url)
            transport = CurlTransport()
            client = HTTPClient(configuration: .init(transport: transport, cache: cache, retry: nil))
        }

        deinit { server.stop() }

        func url(_ path: String, query: [String: String] = [:]) -> URL {
            var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
            components.path = path
            if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
            return components.url!
        }

        func get(_ path: String, query: [String: String] = [:], headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
            try await client.send(HTTPRequest(url: url(path, query: query), headers: headers))
        }
    }

    @Test func aFreshHitMakesNoRequest() async throws {
        let setup = try Setup()
        let first = try await setup.get("/etag")
        let second = try await setup.get("/etag")
        #expect(first.cache.decision == .miss)
        #expect(second.cache.decision == .fresh)
        #expect(try second.body.readAll() == first.body.readAll())
        #expect(setup.server.requestCount(path: "/etag") == 1)
    }

    @Test func aStaleEntrySendsIfNoneMatchAndTheServerAnswers304() async throws {
        // Given /etag stored with max-age=0, stale at once
        let setup = try Setup()
        let first = try await setup.get("/etag", query: ["max_age": "0"])
        // When it is asked for again
        let second = try await setup.get("/etag", query: ["max_age": "0"])
        // Then the server saw If-None-Match and answered 304, and the stored body was served
        #expect(first.cache.decision == .miss)
        #expect(second.cache.decision == .revalidated)
        #expect(second.status == 200)
        #expect(try second.body.readAll() == first.body.readAll())
        let log = setup.server.log.filter { $0.path == "/etag" }
        #expect(log.count == 2)
        #expect(log.last?.header("If-None-Match") == "\"etag-v1\"")
        // (the server logs the status just after writing the answer, so wait for it)
        #expect(await LoopbackServer.eventually {
            setup.server.log.last(where: { $0.path == "/etag" })?.status == 304
        })
        // And the compare view has what the 304 saved
        let comparison = try #require(setup.cache.lastRevalidation(url: setup.url("/etag", query: ["max_age": "0"])))
        #expect(comparison.validationStatus == 304)
        #expect(comparison.fullFetchBytes == first.body.size)
        #expect(comparison.bytesSaved > 0)
    }

    @Test func lastModifiedIsValidatedWithIfModifiedSince() async throws {
        let setup = try Setup()
        _ = try await setup.get("/last-modified", query: ["max_age": "0"])
        let second = try await setup.get("/last-modified", query: ["max_age": "0"])
        #expect(second.cache.decision == .revalidated)
        #expect(setup.server.log.last?.header("If-Modified-Since") != nil)
        #expect(await LoopbackServer.eventually { setup.server.log.last?.status == 304 })
    }

    @Test func aChangedResourceAnswers200AndReplacesTheEntry() async throws {
        // Given /cache/changing, whose version changes every second
        let setup = try Setup()
        let first = try await setup.get("/cache/changing", query: ["every": "1"])
        // When it is asked for until the server has a new version (a bounded poll, not a timing claim)
        var refetched: HTTPResponse?
        for _ in 0..<50 where refetched == nil {
            try await Task.sleep(for: .milliseconds(200))
            let response = try await setup.get("/cache/changing", query: ["every": "1"])
            if response.cache.decision == .refetched { refetched = response }
        }
        // Then the new body replaced the stored one
        let replaced = try #require(refetched)
        #expect(replaced.status == 200)
        #expect(try replaced.body.readAll() != first.body.readAll())
        let served = try await setup.get("/cache/changing", query: ["every": "1"], headers: ["Cache-Control": "max-stale"])
        #expect(served.cache.decision == .stale || served.cache.decision == .fresh)
        #expect(try served.body.readAll() == replaced.body.readAll())
    }

    @Test func aSuccessfulPostInvalidatesTheStoredList() async throws {
        // Given GET /users stored (no freshness: served only to max-stale)
        let setup = try Setup()
        #expect(try await setup.get("/users").cache.decision == .miss)
        let maxStale: HTTPHeaders = ["Cache-Control": "max-stale"]
        #expect(try await setup.get("/users", headers: maxStale).cache.decision == .stale)
        #expect(setup.server.requestCount(path: "/users") == 1)
        // When a user is created
        let created = try await setup.client.send(HTTPRequest(
            method: .post, url: setup.url("/users"), headers: ["Content-Type": "application/json"],
            body: .data(Data(#"{"name":"Cache Test","email":"cache@example.test"}"#.utf8))))
        #expect(created.status == 201)
        #expect(created.cache.detail?.contains("invalidated") == true)
        // Then the list is fetched again even by a client that accepts stale responses
        #expect(try await setup.get("/users", headers: maxStale).cache.decision == .miss)
        #expect(setup.server.log.filter { $0.path == "/users" && $0.method == "GET" }.count == 2)
    }

    @Test func varyAndNoStoreBehaveOverTheWire() async throws {
        let setup = try Setup()
        _ = try await setup.get("/cache/vary", headers: ["Accept-Language": "fr"])
        #expect(try await setup.get("/cache/vary", headers: ["Accept-Language": "fr"]).cache.decision == .fresh)
        #expect(try await setup.get("/cache/vary", headers: ["Accept-Language": "de"]).cache.decision == .miss)
        #expect(setup.server.requestCount(path: "/cache/vary") == 2)
        #expect(try await setup.get("/cache/no-store").cache.decision == .notStored)
        #expect(try await setup.get("/cache/no-store").cache.decision == .notStored)
        #expect(setup.server.requestCount(path: "/cache/no-store") == 2)
        _ = try await setup.get("/cache/no-cache")
        #expect(try await setup.get("/cache/no-cache").cache.decision == .revalidated)
        #expect(try await setup.get("/cache/heuristic").cache.decision == .miss)
        let heuristic = try await setup.get("/cache/heuristic")
        #expect(heuristic.cache.decision == .fresh)
        #expect((heuristic.cache.ttl ?? 0) > 86_000)
    }
}

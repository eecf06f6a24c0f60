import CourierHTTP
import Foundation
import Synchronization
import Testing

@Suite("Cache invalidation, modes and events")
struct CacheInvalidationAndModeTests {
    static func fixture() throws -> CacheFixture {
        try CacheFixture { request in
            switch (request.method, request.url.path) {
            case (.post, "/users"):
                return .cacheStub(201, ["Location": "/users/7", "Content-Location": "https://elsewhere.test/users/7"])
            case (.delete, _):
                return .cacheStub(404, [:])
            default:
                if request.headers["If-None-Match"] != nil { return .cacheStub(304, [:]) }
                return .cacheStub(200, ["Cache-Control": "max-age=600", "ETag": "\"i\""], body: request.url.path)
            }
        }
    }

    @Test func aSuccessfulPostInvalidatesItsURLAndSameOriginLocation() async throws {
        // Given three stored GETs
        let fixture = try Self.fixture()
        for path in ["/users", "/users/7", "/users/8"] { _ = try await fixture.get(path) }
        // When a POST to /users succeeds with Location /users/7
        let post = try await fixture.send(HTTPRequest(method: .post, url: CacheFixture.url("/users")))
        // Then /users and /users/7 are fetched again, /users/8 is still fresh
        #expect(post.cache.decision == .notStored)
        #expect(post.cache.detail == "POST responses are not stored; invalidated 2 stored responses")
        #expect(try await fixture.get("/users").cache.decision == .miss)
        #expect(try await fixture.get("/users/7").cache.decision == .miss)
        #expect(try await fixture.get("/users/8").cache.decision == .fresh)
    }

    @Test func aFailedUnsafeRequestInvalidatesNothing() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.get("/users/9")
        _ = try await fixture.send(HTTPRequest(method: .delete, url: CacheFixture.url("/users/9")))
        #expect(try await fixture.get("/users/9").cache.decision == .fresh)
    }

    @Test func revalidateModeValidatesEvenAFreshEntry() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.get("/r")
        #expect(try await fixture.get("/r", mode: .revalidate).cache.decision == .revalidated)
        #expect(fixture.transport.requests.last?.headers["If-None-Match"] == "\"i\"")
    }

    @Test func reloadModeSkipsTheEntryAndReplacesIt() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.get("/r")
        let reloaded = try await fixture.get("/r", mode: .reload)
        #expect(reloaded.cache.decision == .bypass)
        #expect(fixture.transport.requests.last?.headers["If-None-Match"] == nil)
        #expect(fixture.transport.requests.count == 2)
        #expect(try await fixture.get("/r").cache.decision == .fresh)
    }

    @Test func bypassModeNeitherReadsNorWrites() async throws {
        let fixture = try Self.fixture()
        #expect(try await fixture.get("/b", mode: .bypass).cache.decision == .bypass)
        #expect(try await fixture.get("/b").cache.decision == .miss)
        #expect(try await fixture.get("/b", mode: .bypass).cache.decision == .bypass)
        #expect(fixture.transport.requests.count == 3)
    }

    @Test func aCallersOwnConditionalRequestPassesThrough() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.get("/c")
        let response = try await fixture.get("/c", headers: ["If-None-Match": "\"mine\""])
        #expect(response.status == 304)
        #expect(response.cache.decision == .bypass)
    }

    @Test func everyDecisionIsPublishedAsAnEvent() async throws {
        let fixture = try Self.fixture()
        let seen = Mutex<[CacheDecision]>([])
        let context = RequestContext(events: EventSink { event in
            if case .cacheDecision(_, let report) = event { seen.withLock { $0.append(report.decision) } }
        })
        _ = try await fixture.send(HTTPRequest(url: CacheFixture.url("/e")), context: context)
        _ = try await fixture.send(HTTPRequest(url: CacheFixture.url("/e")), context: context)
        #expect(seen.withLock { $0 } == [.miss, .fresh])
    }

    @Test func revalidateNowComparesTheStoredResponseWithTheValidatedOne() async throws {
        // Given a stored response whose full fetch took 40 ms and moved its body
        let fixture = try Self.fixture()
        _ = try await fixture.get("/now")
        // When it is revalidated on demand
        let comparison = try await fixture.cache.revalidateNow(HTTPRequest(url: CacheFixture.url("/now")),
                                                               transport: fixture.transport)
        // Then the comparison holds both responses and what the 304 cost against the full fetch
        let result = try #require(comparison)
        #expect(result.validationStatus == 304)
        #expect(result.after.cache.decision == .revalidated)
        #expect(result.before.cacheText == "/now")
        #expect(result.fullFetchBytes == 104)
        #expect(result.bytesTransferred == 100)
        #expect(result.bytesSaved == 4)
        #expect(result.fullFetchSeconds == 0.04)
        // And asking again at the same instant gives a new comparison too
        let again = try await fixture.cache.revalidateNow(HTTPRequest(url: CacheFixture.url("/now")),
                                                          transport: fixture.transport)
        #expect(again?.validationStatus == 304)
        // And nothing stored means no comparison
        let none = try await fixture.cache.revalidateNow(HTTPRequest(url: CacheFixture.url("/never")),
                                                         transport: fixture.transport)
        #expect(none == nil)
    }
}

@Suite("Cache report output")
struct CacheReportOutputTests {
    @Test func jsonFieldsCarryTheDecisionAgeAndTTLInWholeSeconds() {
        let report = CacheReport(decision: .fresh, age: 10.4, ttl: 49.6)
        #expect(report.jsonFields["cache"] as? String == "fresh")
        #expect(report.jsonFields["age_s"] as? Int == 10)
        #expect(report.jsonFields["ttl_s"] as? Int == 50)
        #expect(report.jsonFields["cache_detail"] == nil)
        #expect(report.summary == "fresh (age 10 s, 50 s left)")
    }

    @Test func aNotStoredReportSaysWhy() {
        let report = CacheReport(decision: .notStored, detail: "the response said no-store")
        #expect(report.jsonFields["cache"] as? String == "not-stored")
        #expect(report.jsonFields["age_s"] == nil)
        #expect(report.summary == "not-stored: the response said no-store")
        #expect(CacheReport(decision: .stale, age: 70, ttl: -10).summary == "stale (age 70 s, stale by 10 s)")
    }
}

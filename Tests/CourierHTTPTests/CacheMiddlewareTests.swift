import CourierHTTP
import CourierMessage
import Foundation
import Synchronization
import Testing

@Suite("Cache decisions")
struct CacheMiddlewareTests {
    @Test func aFreshHitIsServedWithoutCallingTheTransport() async throws {
        // Given a response fresh for 60 s
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""], body: "one") }
        let first = try await fixture.get("/users")
        // When the same URL is asked for 10 s later
        fixture.clock.advance(10)
        let second = try await fixture.get("/users")
        // Then the first was a miss, the second is fresh with its age and no second request was sent
        #expect(first.cache.decision == .miss)
        #expect(first.cache.ttl == 60)
        #expect(second.cache.decision == .fresh)
        #expect(second.cache.age == 10)
        #expect(second.cache.ttl == 50)
        #expect(second.headers["Age"] == "10")
        #expect(second.cacheText == "one")
        #expect(fixture.transport.requests.count == 1)
    }

    @Test func aStaleEntryIsValidatedAndA304MergesHeadersAndServesTheStoredBody() async throws {
        // Given a stored response with both validators, fresh for 5 s
        let fixture = try CacheFixture { request in
            if request.headers["If-None-Match"] == "\"v1\"" {
                return .cacheStub(304, ["Cache-Control": "max-age=100", "ETag": "\"v1\"", "X-Served-By": "edge-2",
                                   "Content-Length": "0"])
            }
            return .cacheStub(200, ["Cache-Control": "max-age=5", "ETag": "\"v1\"", "Content-Length": "5",
                               "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT", "X-Served-By": "edge-1"],
                         body: "hello")
        }
        _ = try await fixture.get("/doc")
        // When it is asked for after it went stale
        fixture.clock.advance(30)
        let revalidated = try await fixture.get("/doc")
        // Then the conditional request carried both validators
        let conditional = try #require(fixture.transport.requests.last)
        #expect(conditional.headers["If-None-Match"] == "\"v1\"")
        #expect(conditional.headers["If-Modified-Since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        // And the 304 updated the stored headers, except Content-Length, and the body is the stored one
        #expect(revalidated.cache.decision == .revalidated)
        #expect(revalidated.status == 200)
        #expect(revalidated.cacheText == "hello")
        #expect(revalidated.headers["X-Served-By"] == "edge-2")
        #expect(revalidated.headers["Cache-Control"] == "max-age=100")
        #expect(revalidated.headers["Content-Length"] == "5")
        // And the updated freshness holds: the next request is a fresh hit
        fixture.clock.advance(50)
        #expect(try await fixture.get("/doc").cache.decision == .fresh)
        #expect(fixture.transport.requests.count == 2)
    }

    @Test func aChangedResourceAnswering200ReplacesTheEntry() async throws {
        let version = Mutex(1)
        let fixture = try CacheFixture { _ in
            let current = version.withLock { $0 }
            return .cacheStub(200, ["Cache-Control": "max-age=5", "ETag": "\"v\(current)\""], body: "body \(current)")
        }
        _ = try await fixture.get("/changing")
        version.withLock { $0 = 2 }
        fixture.clock.advance(10)
        let refetched = try await fixture.get("/changing")
        #expect(refetched.cache.decision == .refetched)
        #expect(refetched.cacheText == "body 2")
        #expect(try await fixture.get("/changing").cacheText == "body 2")
        #expect(fixture.transport.requests.count == 2)
        // The revalidation is kept for the compare view, with the stored response before it
        let comparison = try #require(fixture.cache.lastRevalidation(url: CacheFixture.url("/changing")))
        #expect(comparison.before.cacheText == "body 1")
        #expect(comparison.after.cacheText == "body 2")
        #expect(comparison.validationStatus == 200)
    }

    @Test func noStoreResponsesAreNotStoredAndSayWhy() async throws {
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "no-store, max-age=60"], body: "x") }
        let first = try await fixture.get("/secret")
        let second = try await fixture.get("/secret")
        #expect(first.cache.decision == .notStored)
        #expect(first.cache.detail == "the response said no-store")
        #expect(second.cache.decision == .notStored)
        #expect(fixture.transport.requests.count == 2)
    }

    @Test func aResponseWithoutFreshnessIsStoredStaleAndServedOnlyToMaxStale() async throws {
        // Given a 200 with no freshness and no validator
        let fixture = try CacheFixture { _ in .cacheStub(200, [:], body: "x") }
        #expect(try await fixture.get("/plain").cache.decision == .miss)
        // Then a plain request fetches it again unconditionally, and max-stale accepts the stored one
        #expect(try await fixture.get("/plain").cache.decision == .refetched)
        #expect(fixture.transport.requests.last?.headers["If-None-Match"] == nil)
        #expect(try await fixture.get("/plain", headers: ["Cache-Control": "max-stale"]).cache.decision == .stale)
        #expect(fixture.transport.requests.count == 2)
    }

    @Test func aStatusNotCacheableByDefaultIsStoredOnlyWithExplicitFreshness() async throws {
        let fixture = try CacheFixture { request in
            request.url.path == "/created-fresh" ? .cacheStub(201, ["Cache-Control": "max-age=60"]) : .cacheStub(201, ["ETag": "\"a\""])
        }
        #expect(try await fixture.get("/created").cache.decision == .notStored)
        #expect(try await fixture.get("/created-fresh").cache.decision == .miss)
        #expect(try await fixture.get("/created-fresh").cache.decision == .fresh)
    }

    @Test func responseNoCacheIsStoredButAlwaysValidated() async throws {
        let fixture = try CacheFixture { request in
            request.headers["If-None-Match"] != nil ? .cacheStub(304, [:])
                : .cacheStub(200, ["Cache-Control": "no-cache, max-age=600", "ETag": "\"n\""], body: "nc")
        }
        _ = try await fixture.get("/no-cache")
        let second = try await fixture.get("/no-cache")
        #expect(second.cache.decision == .revalidated)
        #expect(second.cacheText == "nc")
        #expect(fixture.transport.requests.count == 2)
    }

    @Test func requestNoCacheAndPragmaNoCacheForceValidation() async throws {
        let fixture = try CacheFixture { request in
            request.headers["If-None-Match"] != nil ? .cacheStub(304, [:])
                : .cacheStub(200, ["Cache-Control": "max-age=600", "ETag": "\"p\""], body: "p")
        }
        _ = try await fixture.get("/p")
        #expect(try await fixture.get("/p", headers: ["Cache-Control": "no-cache"]).cache.decision == .revalidated)
        #expect(try await fixture.get("/p", headers: ["Pragma": "no-cache"]).cache.decision == .revalidated)
        // Pragma does not count when Cache-Control is present
        let withBoth = try await fixture.get("/p", headers: ["Pragma": "no-cache", "Cache-Control": "max-stale=1"])
        #expect(withBoth.cache.decision == .fresh)
    }

    @Test func maxStaleServesStaleUnlessTheResponseSaidMustRevalidate() async throws {
        let fixture = try CacheFixture { request in
            if request.headers["If-None-Match"] != nil { return .cacheStub(304, [:]) }
            let strict = request.url.path == "/strict"
            return .cacheStub(200, ["Cache-Control": strict ? "max-age=10, must-revalidate" : "max-age=10", "ETag": "\"s\""])
        }
        _ = try await fixture.get("/lenient")
        _ = try await fixture.get("/strict")
        fixture.clock.advance(40)
        let lenient = try await fixture.get("/lenient", headers: ["Cache-Control": "max-stale=60"])
        let tooStale = try await fixture.get("/lenient", headers: ["Cache-Control": "max-stale=10"])
        let strict = try await fixture.get("/strict", headers: ["Cache-Control": "max-stale"])
        #expect(lenient.cache.decision == .stale)
        #expect(lenient.cache.ttl == -30)
        #expect(tooStale.cache.decision == .revalidated)
        #expect(strict.cache.decision == .revalidated)
    }

    @Test func requestMaxAgeAndMinFreshAskForValidationOfAFreshEntry() async throws {
        let fixture = try CacheFixture { request in
            request.headers["If-None-Match"] != nil ? .cacheStub(304, [:])
                : .cacheStub(200, ["Cache-Control": "max-age=100", "ETag": "\"m\""])
        }
        _ = try await fixture.get("/m")
        fixture.clock.advance(30)
        #expect(try await fixture.get("/m", headers: ["Cache-Control": "max-age=60"]).cache.decision == .fresh)
        #expect(try await fixture.get("/m", headers: ["Cache-Control": "max-age=20"]).cache.decision == .revalidated)
        fixture.clock.advance(30)
        #expect(try await fixture.get("/m", headers: ["Cache-Control": "min-fresh=90"]).cache.decision == .revalidated)
        #expect(try await fixture.get("/m", headers: ["Cache-Control": "min-fresh=10"]).cache.decision == .fresh)
    }

    @Test func onlyIfCachedAnswers504OnAMissWithoutAnyRequest() async throws {
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "max-age=5", "ETag": "\"o\""]) }
        let viaMode = try await fixture.get("/o", mode: .onlyIfCached)
        let viaDirective = try await fixture.get("/o", headers: ["Cache-Control": "only-if-cached"])
        #expect(viaMode.status == 504)
        #expect(viaMode.cache.decision == .miss)
        #expect(viaDirective.status == 504)
        #expect(fixture.transport.requests.isEmpty)
        // Once stored and fresh it answers; once stale it is a 504 again rather than a request
        _ = try await fixture.get("/o")
        #expect(try await fixture.get("/o", mode: .onlyIfCached).cache.decision == .fresh)
        fixture.clock.advance(10)
        #expect(try await fixture.get("/o", mode: .onlyIfCached).status == 504)
        #expect(fixture.transport.requests.count == 1)
    }

    @Test func aServerErrorDuringValidationServesStaleOnlyWhenAllowed() async throws {
        let failing = Mutex(false)
        let fixture = try CacheFixture { request in
            if failing.withLock({ $0 }) { return .cacheStub(503, [:], body: "down") }
            let control = request.url.path == "/tolerant" ? "max-age=10, stale-if-error=300" : "max-age=10"
            return .cacheStub(200, ["Cache-Control": control, "ETag": "\"e\""], body: "ok")
        }
        _ = try await fixture.get("/tolerant")
        _ = try await fixture.get("/strict")
        failing.withLock { $0 = true }
        fixture.clock.advance(60)
        let tolerant = try await fixture.get("/tolerant")
        let strict = try await fixture.get("/strict")
        #expect(tolerant.cache.decision == .stale)
        #expect(tolerant.cacheText == "ok")
        #expect(tolerant.cache.detail?.contains("503") == true)
        #expect(strict.status == 503)
        #expect(strict.cache.decision == .refetched)
        // The entry survives the error, so a tolerant client can still get it
        let withMaxStale = try await fixture.get("/strict", headers: ["Cache-Control": "max-stale=3600"])
        #expect(withMaxStale.cache.decision == .stale)
    }

    @Test func anUnreachableServerDuringValidationServesStaleOnlyWhenAllowed() async throws {
        let offline = Mutex(false)
        let fixture = try CacheFixture { _ in
            if offline.withLock({ $0 }) {
                throw APIError.cannotConnect(ConnectFailure(reason: .refused, host: "h", port: 1, underlying: "refused"))
            }
            return .cacheStub(200, ["Cache-Control": "max-age=10, stale-if-error=60", "ETag": "\"u\""], body: "u")
        }
        _ = try await fixture.get("/u")
        offline.withLock { $0 = true }
        fixture.clock.advance(20)
        #expect(try await fixture.get("/u").cache.decision == .stale)
        fixture.clock.advance(100)
        await #expect(throws: APIError.self) { try await fixture.get("/u") }
    }

    @Test func varySelectsTheStoredRequestHeadersAndStarNeverMatches() async throws {
        let fixture = try CacheFixture { request in
            if request.url.path == "/star" { return .cacheStub(200, ["Cache-Control": "max-age=60", "Vary": "*"]) }
            let language = request.headers["Accept-Language"] ?? "en"
            return .cacheStub(200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: language)
        }
        _ = try await fixture.get("/greeting", headers: ["Accept-Language": "fr"])
        let same = try await fixture.get("/greeting", headers: ["accept-language": "fr"])
        let other = try await fixture.get("/greeting", headers: ["Accept-Language": "de"])
        #expect(same.cache.decision == .fresh)
        #expect(same.cacheText == "fr")
        #expect(other.cache.decision == .miss)
        #expect(other.cache.detail == "the request differs in a header named by Vary")
        #expect(other.cacheText == "de")
        let star = try await fixture.get("/star")
        #expect(star.cache.decision == .notStored)
        #expect(star.cache.detail == "Vary: * never matches a later request")
    }

    @Test func responsesToRequestsWithAuthorizationAreStoredInAPrivateCache() async throws {
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "private, max-age=60"], body: "me") }
        _ = try await fixture.get("/me", headers: ["Authorization": "Bearer abc"])
        #expect(try await fixture.get("/me", headers: ["Authorization": "Bearer abc"]).cache.decision == .fresh)
        // And the credential itself is not written to disk
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
        for file in files {
            let text = try String(contentsOf: fixture.directory.url.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("Bearer abc"))
        }
    }

    @Test func setCookieIsNeverWrittenToTheCache() async throws {
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "max-age=60", "Set-Cookie": "sid=1"]) }
        _ = try await fixture.get("/cookie")
        let hit = try await fixture.get("/cookie")
        #expect(hit.cache.decision == .fresh)
        #expect(hit.headers["Set-Cookie"] == nil)
    }
}

@Suite("Cache validation edge cases")
struct CacheValidationEdgeTests {
    @Test func a304NamingAnotherStrongETagIsNotMergedAndTheResourceIsFetchedWhole() async throws {
        // Given a stored "v1" and a server whose 304 speaks of "v2"
        let fixture = try CacheFixture { request in
            if request.headers["If-None-Match"] != nil { return .cacheStub(304, ["ETag": "\"v2\""]) }
            return .cacheStub(200, ["Cache-Control": "max-age=1", "ETag": "\"v1\""], body: "full")
        }
        _ = try await fixture.get("/mismatch")
        fixture.clock.advance(5)
        // When it is revalidated
        let response = try await fixture.get("/mismatch")
        // Then the 304 was not applied: an unconditional request fetched the whole response
        #expect(response.status == 200)
        #expect(response.cache.decision == .refetched)
        #expect(fixture.transport.requests.count == 3)
        #expect(fixture.transport.requests.last?.headers["If-None-Match"] == nil)
    }
}

@Suite("Cache 304 merging")
struct Cache304MergeTests {
    @Test func a304WithoutAgeOrDateRefreshesTheEntrysAge() async throws {
        // Given a stored response that was already 50 s old when it arrived (Age: 50), max-age 60
        let fixture = try CacheFixture { request in
            request.headers["If-None-Match"] != nil ? .cacheStub(304, [:])
                : .cacheStub(200, ["Cache-Control": "max-age=60", "ETag": "\"a\"", "Age": "50"], body: "aged")
        }
        _ = try await fixture.get("/aged")
        fixture.clock.advance(20)
        // When it is revalidated by a 304 that carries neither Age nor Date
        let revalidated = try await fixture.get("/aged")
        // Then the refreshed entry counts its age from the 304, not from the first response
        #expect(revalidated.cache.decision == .revalidated)
        #expect(revalidated.cache.age == 0)
        #expect(revalidated.cache.ttl == 60)
    }

    @Test func mergingKeepsFieldOrderAndReplacesEveryValueOfAName() {
        let url = CacheFixture.url("/m")
        let response = HTTPResponse.cacheStub(200, HTTPHeaders([("ETag", "\"1\""), ("Link", "<a>"), ("Link", "<b>"),
                                                                 ("Content-Length", "4"), ("Date", "x")]), url: url)
        var entry = HTTPCacheEntry(method: .get, url: url, response: response, selectedRequestHeaders: [:],
                                   requestTime: Date(), responseTime: Date())
        entry.merge304(headers: HTTPHeaders([("Link", "<c>"), ("Content-Length", "0"), ("X-New", "1"),
                                             ("Date", "y"), ("Transfer-Encoding", "chunked")]),
                       receivedAt: Date())
        #expect(entry.headers.map { "\($0.name): \($0.value)" } == [
            "ETag: \"1\"", "Link: <c>", "Content-Length: 4", "Date: y", "X-New: 1",
        ])
    }
}

import CourierHTTP
import CourierMessage
import Foundation
import Synchronization
import Testing

/// The cache and `RequestContext.onHead`: the caller sees the head of the response it gets, whether
/// the network or the store answered, never the head of a validation the cache absorbed.
@Suite struct CacheHeadTests {
    /// What reached the caller's hooks: `head STATUS` and `chunk TEXT`, in order.
    final class Seen: Sendable {
        private let entries = Mutex<[String]>([])
        var context: RequestContext {
            var context = RequestContext()
            context.onHead = { head in self.entries.withLock { $0.append("head \(head.status)") } }
            context.onChunk = { chunk in
                self.entries.withLock { $0.append("chunk " + String(decoding: chunk, as: UTF8.self)) }
            }
            return context
        }
        var all: [String] { entries.withLock { $0 } }
        func reset() { entries.withLock { $0 = [] } }
    }

    /// Sends through the fixture's cache to its stub, which plays the transport's part: the head,
    /// then the body as one chunk.
    func send(_ fixture: CacheFixture, _ path: String, context: RequestContext) async throws -> HTTPResponse {
        let transport = fixture.transport
        return try await fixture.cache.intercept(HTTPRequest(url: CacheFixture.url(path)), context: context) {
            request, context throws(APIError) in
            let response = try await transport.send(request, context: context)
            context.onHead?(ResponseHead(response))
            if let body = try? response.body.readAll(), !body.isEmpty { context.onChunk?(body) }
            return response
        }
    }

    @Test("A fresh hit hands over the stored head without a network call")
    func aFreshHitHandsOverTheStoredHead() async throws {
        // Given a stored response, fresh for 60 s
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "max-age=60"], body: "one") }
        let seen = Seen()
        _ = try await send(fixture, "/doc", context: seen.context)
        seen.reset()
        // When it is asked for again
        let hit = try await send(fixture, "/doc", context: seen.context)
        // Then the cache answered, and the caller got its head
        #expect(hit.cache.decision == .fresh)
        #expect(fixture.transport.requests.count == 1)
        #expect(seen.all == ["head 200"])
    }

    @Test("A validation answered by 304 shows the caller the stored 200's head, not the 304")
    func aRevalidationShowsTheStoredHead() async throws {
        // Given a stale stored response with an ETag, and a server that answers 304 to its validation
        let fixture = try CacheFixture { request in
            request.headers["If-None-Match"] != nil ? .cacheStub(304, ["ETag": "\"v1\""])
                : .cacheStub(200, ["Cache-Control": "max-age=5", "ETag": "\"v1\""], body: "hello")
        }
        let seen = Seen()
        _ = try await send(fixture, "/doc", context: seen.context)
        fixture.clock.advance(30)
        seen.reset()
        // When it is asked for again
        let revalidated = try await send(fixture, "/doc", context: seen.context)
        // Then the 304 went to the cache only; the caller saw the head of the 200 it got
        #expect(revalidated.cache.decision == .revalidated)
        #expect(seen.all == ["head 200"])
    }

    @Test("A server error the stored response stands in for is kept from the caller, head and body")
    func aServerErrorCoveredByTheStoreIsWithheld() async throws {
        // Given a stored response that may be served stale on error, and a server now failing
        let failing = Mutex(false)
        let fixture = try CacheFixture { _ in
            failing.withLock { $0 } ? .cacheStub(503, [:], body: "down")
                : .cacheStub(200, ["Cache-Control": "max-age=10, stale-if-error=300", "ETag": "\"e\""], body: "ok")
        }
        let seen = Seen()
        _ = try await send(fixture, "/doc", context: seen.context)
        failing.withLock { $0 = true }
        fixture.clock.advance(60)
        seen.reset()
        // When it is asked for again
        let stale = try await send(fixture, "/doc", context: seen.context)
        // Then the caller saw the stored 200's head, and none of the 503
        #expect(stale.cache.decision == .stale)
        #expect(seen.all == ["head 200"])
    }

    @Test("A changed resource fetched during validation reaches the caller as it arrives")
    func aRefetchPassesThrough() async throws {
        // Given a stale stored response and a server that now has a new version
        let version = Mutex(1)
        let fixture = try CacheFixture { _ in
            let current = version.withLock { $0 }
            return .cacheStub(200, ["Cache-Control": "max-age=5", "ETag": "\"v\(current)\""], body: "v\(current)")
        }
        let seen = Seen()
        _ = try await send(fixture, "/doc", context: seen.context)
        version.withLock { $0 = 2 }
        fixture.clock.advance(30)
        seen.reset()
        // When it is asked for again
        let refetched = try await send(fixture, "/doc", context: seen.context)
        // Then the new answer's head and body reached the caller once
        #expect(refetched.cache.decision == .refetched)
        #expect(seen.all == ["head 200", "chunk v2"])
    }
}

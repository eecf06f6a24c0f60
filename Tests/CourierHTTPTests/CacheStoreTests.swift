import CourierTestSupport
import CourierHTTP
import Foundation
import Testing

@Suite("Cache store on disk")
struct CacheStoreTests {
    /// A store in `directory/name` whose size limit is `limit` of the bytes one entry at `probePath`
    /// with a body of `bodySize` takes on disk, measured by saving it in a probe store first.
    func sizedStore(in directory: TemporaryFolder, name: String, probePath: String, bodySize: Int,
                    limit: (Int) -> Int) throws -> HTTPCacheStore {
        let probe = try HTTPCacheStore(directory: directory.url.appendingPathComponent("probe"))
        let (sample, sampleBody) = entry(probePath, body: String(repeating: "x", count: bodySize))
        try probe.save(sample, body: sampleBody)
        return try HTTPCacheStore(directory: directory.url.appendingPathComponent(name), maxBytes: limit(probe.totalBytes))
    }

    func entry(_ path: String, status: Int = 200, body: String = "") -> (HTTPCacheEntry, ResponseBody) {
        let url = CacheFixture.url(path)
        let response = HTTPResponse.cacheStub(status, ["Cache-Control": "max-age=60", "ETag": "\"x\""], body: body, url: url)
        let entry = HTTPCacheEntry(method: .get, url: url, response: response, selectedRequestHeaders: [:],
                                   requestTime: Date(), responseTime: Date())
        return (entry, response.body)
    }

    @Test func defaultDirectoryHonoursXDGCacheHome() {
        #expect(HTTPCacheStore.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path
                == "/x/cache/courier/http")
        #expect(HTTPCacheStore.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/courier/http")
        // A relative XDG value is ignored, as the XDG spec says
        #expect(HTTPCacheStore.defaultDirectory(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]).path
                == "/h/.cache/courier/http")
    }

    @Test func savesAndLooksUpByMethodAndURLIgnoringTheFragment() throws {
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url)
        let (saved, body) = entry("/a", body: "alpha")
        try store.save(saved, body: body)
        guard case .hit(let found) = store.lookup(method: .get, url: URL(string: "https://api.example.test/a#top")!)
        else { Issue.record("expected a hit"); return }
        #expect(try store.body(of: found).readAll() == Data("alpha".utf8))
        guard case .miss = store.lookup(method: .head, url: CacheFixture.url("/a")) else {
            Issue.record("HEAD is a different entry"); return
        }
    }

    @Test func largeBodiesLiveInTheirOwnFileAndReplacingRemovesTheOldOne() throws {
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url, inlineLimit: 8)
        let (first, firstBody) = entry("/big", body: String(repeating: "a", count: 100))
        try store.save(first, body: firstBody)
        let (second, secondBody) = entry("/big", body: String(repeating: "b", count: 200))
        try store.save(second, body: secondBody)
        guard case .hit(let found) = store.lookup(method: .get, url: CacheFixture.url("/big")) else {
            Issue.record("expected a hit"); return
        }
        guard case .file(let file, let size) = store.storedBody(of: found) else { Issue.record("expected a file"); return }
        #expect(size == 200)
        #expect(try Data(contentsOf: file) == Data(String(repeating: "b", count: 200).utf8))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files.filter { $0.hasSuffix(".body") }.count == 1)
        #expect(files.filter { $0.hasPrefix(".tmp-") }.isEmpty)
    }

    @Test func aLargeBodyIsHandedOutAsAFileTheCallerMayDelete() throws {
        // Given a stored body that lives in its own file
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url.appendingPathComponent("cache"), inlineLimit: 8,
                                       handoutDirectory: directory.url)
        let (saved, body) = entry("/handout", body: String(repeating: "h", count: 100))
        try store.save(saved, body: body)
        guard case .hit(let found) = store.lookup(method: .get, url: CacheFixture.url("/handout")),
              case .file(let handout, let size) = store.body(of: found) else { Issue.record("expected a file"); return }
        // When the caller reads it and deletes it, as it does with a spilled transport body
        #expect(size == 100)
        #expect(handout.deletingLastPathComponent().path == directory.url.path)
        try FileManager.default.removeItem(at: handout)
        // Then the entry is intact
        guard case .hit(let again) = store.lookup(method: .get, url: CacheFixture.url("/handout")) else {
            Issue.record("the entry should survive"); return
        }
        #expect(try store.storedBody(of: again).readAll().count == 100)
    }

    @Test func freshHitsOfALargeBodySurviveTheCallerDeletingEachFile() async throws {
        // Given a cache whose bodies past 8 bytes live in files, and a caller that deletes every body file
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url.appendingPathComponent("cache"), inlineLimit: 8,
                                       handoutDirectory: directory.url)
        let cache = HTTPCacheMiddleware(store: store)
        let transport = CacheStubTransport { _ in
            .cacheStub(200, ["Cache-Control": "max-age=600"], body: String(repeating: "L", count: 500))
        }
        for expected in [CacheDecision.miss, .fresh, .fresh] {
            let response = try await cache.intercept(HTTPRequest(url: CacheFixture.url("/large")),
                                                     context: RequestContext()) { request, context throws(APIError) in
                try await transport.send(request, context: context)
            }
            // Then every hit still has the whole body
            #expect(response.cache.decision == expected)
            #expect(try response.body.readAll().count == 500)
            if case .file(let url, _) = response.body { try FileManager.default.removeItem(at: url) }
        }
        #expect(transport.requests.count == 1)
    }

    @Test func aSpilledResponseFileIsStoredWithoutReadingItIntoMemory() throws {
        let directory = try TemporaryFolder("cache-tests")
        let spilled = directory.url.appendingPathComponent("spilled.bin")
        try Data(repeating: 7, count: 1000).write(to: spilled)
        let store = try HTTPCacheStore(directory: directory.url.appendingPathComponent("cache"), inlineLimit: 10)
        let (saved, _) = entry("/spilled")
        try store.save(saved, body: .file(spilled, size: 1000))
        guard case .hit(let found) = store.lookup(method: .get, url: CacheFixture.url("/spilled")) else {
            Issue.record("expected a hit"); return
        }
        #expect(try store.storedBody(of: found).readAll() == Data(repeating: 7, count: 1000))
    }

    @Test func aCorruptEntryIsAMissThatSaysWhyAndIsRemoved() throws {
        // Given an entry file overwritten with garbage
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url)
        let (saved, body) = entry("/corrupt", body: "fine")
        try store.save(saved, body: body)
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .first { $0.hasSuffix(".entry") })
        try Data("{not json".utf8).write(to: directory.url.appendingPathComponent(file))
        // When it is looked up, then it is reported unreadable, and after that it is a plain miss
        guard case .unreadable(let reason) = store.lookup(method: .get, url: CacheFixture.url("/corrupt")) else {
            Issue.record("expected unreadable"); return
        }
        #expect(reason.contains(".entry"))
        guard case .miss = store.lookup(method: .get, url: CacheFixture.url("/corrupt")) else {
            Issue.record("expected a miss"); return
        }
    }

    @Test func theMiddlewareReportsACorruptEntryAsAMissWithDetail() async throws {
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "max-age=60", "ETag": "\"c\""], body: "c") }
        _ = try await fixture.get("/c")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path) {
            try Data([0xff, 0x00]).write(to: fixture.directory.url.appendingPathComponent(name))
        }
        let response = try await fixture.get("/c")
        #expect(response.cache.decision == .miss)
        #expect(response.cache.detail?.hasPrefix("an unreadable entry was discarded") == true)
        #expect(response.cacheText == "c")
    }

    @Test func leastRecentlyUsedEntriesAreEvictedPastTheSizeLimit() throws {
        // Given a store that holds about two entries
        let directory = try TemporaryFolder("cache-tests")
        let store = try sizedStore(in: directory, name: "lru", probePath: "/one", bodySize: 500) { $0 * 2 + 100 }
        // When three are written, the first being used again before the third
        for path in ["/one", "/two"] {
            let (saved, body) = entry(path, body: String(repeating: "x", count: 500))
            try store.save(saved, body: body)
        }
        let past = Date().addingTimeInterval(-100)
        for name in try FileManager.default.contentsOfDirectory(atPath: store.directory.path) {
            try FileManager.default.setAttributes([.modificationDate: past],
                                                  ofItemAtPath: store.directory.appendingPathComponent(name).path)
        }
        _ = store.lookup(method: .get, url: CacheFixture.url("/one"))
        let (third, thirdBody) = entry("/three", body: String(repeating: "x", count: 500))
        try store.save(third, body: thirdBody)
        // Then the least recently used one, /two, is gone
        let urls = Set(store.summaries().map(\.entry.url))
        #expect(urls == [CacheFixture.url("/one").absoluteString, CacheFixture.url("/three").absoluteString])
        #expect(store.totalBytes <= store.maxBytes)
    }

    @Test func theSizeLimitHoldsAcrossManySavesAndKeepsTheNewest() throws {
        // Given a store with room for about twenty small entries
        let directory = try TemporaryFolder("cache-tests")
        let store = try sizedStore(in: directory, name: "many", probePath: "/000", bodySize: 300) { $0 * 20 }
        // When 250 are written, past two rescans of the folder
        for index in 0..<250 {
            let (saved, body) = entry("/\(index)", body: String(repeating: "x", count: 300))
            try store.save(saved, body: body)
        }
        // Then the folder fits the limit and the last one written is still there
        #expect(store.totalBytes <= store.maxBytes)
        #expect(store.summaries().count >= 15)
        guard case .hit = store.lookup(method: .get, url: CacheFixture.url("/249")) else {
            Issue.record("the newest entry was evicted"); return
        }
    }

    @Test func clearRemovesEverything() throws {
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url)
        for path in ["/1", "/2"] {
            let (saved, body) = entry(path)
            try store.save(saved, body: body)
        }
        #expect(try store.clear() == 2)
        #expect(store.summaries().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func concurrentWritersNeverLeaveAHalfWrittenEntry() async throws {
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url, inlineLimit: 16)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let (saved, body) = self.entry("/shared", body: String(repeating: "\(index % 10)", count: 64))
                    try? store.save(saved, body: body)
                    if case .unreadable(let reason) = store.lookup(method: .get, url: CacheFixture.url("/shared")) {
                        Issue.record("unreadable: \(reason)")
                    }
                }
            }
        }
        guard case .hit(let found) = store.lookup(method: .get, url: CacheFixture.url("/shared")) else {
            Issue.record("expected a hit"); return
        }
        #expect(try store.storedBody(of: found).readAll().count == 64)
    }
}

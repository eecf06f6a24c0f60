import CourierApp
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

@Suite("the Log shows an answer served from the cache", .serialized)
struct LogCacheRowTests {
    @Test func aFreshCacheHitGetsItsOwnLogRowThoughNoRequestWasSent() async throws {
        // Given the explorer's runner with an HTTP cache, against the demo server's max-age endpoint
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logcache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let base = server.baseURL.absoluteString.trimmingTrailingSlash
        try Data("### etag\nGET \(base)/etag\n".utf8).write(to: folder.appendingPathComponent("t.http"))
        let cache = try HTTPCacheMiddleware(directory: folder.appendingPathComponent("cache"))
        let queue = ActionQueue {}
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [], cache: cache,
                                                       clipboard: { _ in }), queue: queue)
        defer { runner.shutdown() }
        var state = AppState(size: Size(width: 200, height: 40), collectionPath: folder.path)
        state.timeZone = TimeZone(identifier: "UTC")!
        func drain(until done: (Action) -> Bool) async {
            for _ in 0..<1000 {
                let actions = queue.drain()
                var finished = false
                for action in actions {
                    runner.perform(update(&state, action))
                    if done(action) { finished = true }
                }
                if finished { return }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        runner.perform([.loadCollection(path: folder.appendingPathComponent("t.http").path)])
        await drain { if case .collectionLoaded = $0 { true } else { false } }
        state.press(.char("j"), Key(.enter))
        // When it is sent twice: once to the network, once answered by the cache while fresh
        for _ in 0..<2 {
            runner.perform(state.press(Key(.enter)))
            await drain { if case .responsePaneReady = $0 { true } else { false } }
        }
        // Then the server saw one request, and the Log has a second row saying the cache answered
        #expect(server.requestCount(path: "/etag") == 1)
        #expect(state.responsePane?.info.cacheDecision == "fresh")
        let log = Snapshot.screen(state).joined(separator: "\n")
        #expect(log.contains("fresh from cache, no request"), "\(log)")
        #expect(state.log.attempts.filter(\.fromCache).count == 1)
        // And a narrower Log says it in fewer words rather than cutting them
        state.size = Size(width: 120, height: 40)
        let narrow = Snapshot.screen(state).joined(separator: "\n")
        #expect(narrow.contains("from cache, no request") || narrow.contains("from cache"), "\(narrow)")
        #expect(!narrow.contains("fresh from cache, │"))
    }
}

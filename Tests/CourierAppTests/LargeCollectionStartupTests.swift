import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// Start-up on a collection of 20,000 requests: the first screen comes from the first blocks parsed, says
/// honestly that the rest is loading, and once the rest arrives every request is reachable.
@Suite("Explorer start-up on a large collection")
struct LargeCollectionStartupTests {
    static func writeCollection(_ count: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = "@base = http://127.0.0.1:9\n\n"
        for index in 1...count {
            text += "### request \(String(format: "%05d", index))\nGET {{base}}/items/\(index)\nAccept: application/json\n\n"
        }
        let file = folder.appendingPathComponent("big.http")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func theFirstScreenShowsTheFirstRequestsAndSaysTheRestIsLoadingThenTheLastIsReachable() async throws {
        // Given a file of 20,000 requests and the start-up load through the real effect runner
        let file = try Self.writeCollection(20_000)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let queue = ActionQueue {}
        let log = ActionLog(queue)
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        var state = AppState(size: Size(width: 100, height: 30), collectionPath: file.path, environment: nil)
        runner.perform([.loadCollectionInStages(path: file.path)])

        // When the first stage arrives
        let start = await log.waitFor { if case .collectionStartLoaded(let c) = $0 { c } else { nil } }
        let first = try #require(start)
        _ = update(&state, .collectionStartLoaded(first))

        // Then it holds only the first screen's requests, and the screen shows them with "loading…"
        #expect(first.files.first?.requests.count ?? 0 <= CollectionStore.firstScreenBlocks)
        let early = Snapshot.screen(state).joined(separator: "\n")
        #expect(early.contains("1 Loading… · big.http"))
        #expect(early.contains("request 00001"))
        #expect(early.contains("{{base}}/items/1"), "the first request is open in the editor")

        // When the whole collection arrives
        let whole = await log.waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } }
        _ = update(&state, .collectionLoaded(try #require(whole)))

        // Then "loading…" is gone, the first request is still the one selected, and `G` reaches the last one
        let loaded = Snapshot.screen(state).joined(separator: "\n")
        #expect(!loaded.contains("Loading") && !loaded.contains("loading"))
        #expect(loaded.contains("1 Collection"))
        #expect(state.collection.files.first?.requests.count == 20_000)
        state.press(.char("G"))
        #expect(Snapshot.screen(state).joined(separator: "\n").contains("request 20000"))
        state.press(Key(.enter))
        #expect(state.editor.draft.url == "{{base}}/items/20000")
        runner.shutdown()
    }

    @Test func filteringWhileTheRestLoadsFindsALateRequestOnceItArrives() async throws {
        // Given the first stage of a large collection on screen, and a filter typed for a request beyond it
        let file = try Self.writeCollection(5_000)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let queue = ActionQueue {}
        let log = ActionLog(queue)
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        var state = AppState(size: Size(width: 100, height: 30), collectionPath: file.path, environment: nil)
        runner.perform([.loadCollectionInStages(path: file.path)])
        let start = await log.waitFor { if case .collectionStartLoaded(let c) = $0 { c } else { nil } }
        _ = update(&state, .collectionStartLoaded(try #require(start)))
        state.press(.char("/"))
        for character in "request 04321" { state.press(.char(character)) }
        #expect(Snapshot.screen(state).joined(separator: "\n").contains("No request matches"))

        // When the rest arrives
        let whole = await log.waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } }
        _ = update(&state, .collectionLoaded(try #require(whole)))

        // Then the filter finds it, and opening it shows it
        #expect(Snapshot.screen(state).joined(separator: "\n").contains("request 04321"))
        state.press(Key(.enter))
        state.press(Key(.enter))
        #expect(state.editor.draft.url == "{{base}}/items/4321")
        runner.shutdown()
    }
}

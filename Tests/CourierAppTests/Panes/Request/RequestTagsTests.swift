import CourierApp
import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

@Suite("the explorer reads a request's tags as courier run does", .serialized)
struct RequestTagsTests {
    @Test func maxAttemptsOneIsSentOnceFromTheExplorer() async throws {
        // Given a saved request tagged `# @max-attempts 1` against an endpoint that always answers 429
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 3)
        let draft = try #require(collection.request(ref))
        #expect(draft.maxAttempts == 1)
        // When the explorer sends it
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: draft, environment: nil))])
        let pane = await harness.waitFor { action -> ResponsePaneState? in
            if case .responsePaneReady(1, let pane) = action { pane } else { nil }
        }
        // Then the server received exactly one request, and the 429 is the answer
        #expect(pane?.info.status == 429)
        #expect(harness.server.requestCount(path: "/rate-limited") == 1)
    }

    @Test func aSubscribeMessageIsSentOnConnectFromTheExplorer() async throws {
        // Given a WEBSOCKET request whose first message is marked `# @subscribe`
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        var state = AppState(size: .init(width: 120, height: 40), collectionPath: harness.folder.path)
        _ = update(&state, .collectionLoaded(collection))
        // When it is opened and connected with one Enter on its row (row 0 is the file, rows 1… its requests)
        state.press(.char("g"))
        for _ in 0..<5 { state.press(.char("j")) }
        let effects = state.press(Key(.enter))
        #expect(state.editor.kind == .websocket)
        // Then the connection carries the subscription, to send on connect and after every reconnect
        let connect = effects.compactMap { effect -> [String]? in
            guard case .webSocketConnect(_, let subscriptions) = effect else { return nil }
            return subscriptions.map { state.webSocketPane.savedMessages[$0].text }
        }
        #expect(connect == [[#"{"subscribe": ["ACME"]}"#]])
    }

    @Test func theOptionsTabSavesMaxAttemptsUnderTheTagCourierRunReads() {
        // Given a request read with the old explorer tag, and one with the documented one
        let old = RequestOptions(tags: ["attempts": "2"])
        let documented = RequestOptions(tags: ["max-attempts": "1", "cache": "reload", "timeout": "5"])
        #expect(old.maxAttempts == 2)
        #expect(documented == RequestOptions(timeout: 5, maxAttempts: 1, cacheMode: .reload))
        // When options are written back
        var tags = ["attempts": "2", "no-redirect": ""]
        documented.write(into: &tags)
        // Then only documented tags are written, and the others stay
        #expect(tags == ["max-attempts": "1", "cache": "reload", "timeout": "5", "no-redirect": ""])
    }
}

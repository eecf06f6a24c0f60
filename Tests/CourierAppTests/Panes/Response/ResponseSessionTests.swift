import CourierApp
import CourierBody
import CourierHTTP
import CourierHistory
import CourierTerminal
import Foundation
import Testing

@Suite("the Response pane follows the open request: one response model, one session per request")
struct ResponseSessionTests {
    static func pane(_ body: String, status: Int = 200) -> ResponsePaneState {
        ResponsePaneState(info: ResponsePaneInfo(status: status, reason: "OK",
                                                 headers: [.init("Content-Type", "application/json")]),
                          body: BodyDocument(data: Data(body.utf8)))
    }

    /// Opens the request named `name` without sending it: Enter on a tree row also sends, Enter in the
    /// collection filter only opens.
    static func open(_ state: inout AppState, _ name: String) {
        state.press(.char("1"), Key(.escape), .char("/"))
        state.type(name)
        state.press(Key(.enter))
    }

    @Test func openingAnotherRequestShowsItsOwnResponseNotTheLastOneReceived() {
        // Given "List users" sent and answered with a body of its own
        var state = Fixtures.editing()
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"large": "fifty"}"#)))
        #expect(Snapshot.screen(state).joined().contains("fifty"))
        // When another request, never sent, is opened
        Self.open(&state, "Create user")
        #expect(state.editor.name == "Create user")
        // Then the Response pane shows that request's (empty) state, not the other request's body
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(!screen.contains("fifty"), "\(screen)")
        #expect(screen.contains("No response yet"))
        // And opening the first again brings its response back, scrolled where it was left
        Self.open(&state, "List users")
        #expect(Snapshot.screen(state).joined().contains("fifty"))
        state.press(.char("3"), .char("j"))
        let cursor = state.responsePane?.cursor
        #expect(cursor == 1)
        Self.open(&state, "Create user")
        Self.open(&state, "List users")
        #expect(state.responsePane?.cursor == cursor)
    }

    @Test func aResponseArrivingAfterTheUserSwitchedGoesToTheRequestThatSentIt() {
        // Given "List users" in flight
        var state = Fixtures.editing()
        state.press(Key(.enter))
        let sent = state.generation
        // When the user opens another request before the answer arrives
        Self.open(&state, "Delete user")
        _ = update(&state, .responsePaneReady(generation: sent, Self.pane(#"{"for": "list"}"#)))
        // Then the open request's pane stays its own, and the answer waits with the request that sent it
        #expect(state.responsePane == nil)
        #expect(!Snapshot.screen(state).joined().contains("list"))
        Self.open(&state, "List users")
        #expect(Snapshot.screen(state).joined().contains("\"list\""))
    }

    @Test func dComparesWithThePreviousResponseOfTheSameRequestOnly() {
        // Given "List users" answered twice, and "Create user" answered once in between
        var state = Fixtures.editing()
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"n": 1}"#)))
        Self.open(&state, "Create user")
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"other": true}"#)))
        Self.open(&state, "List users")
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"n": 2}"#)))
        // When d is pressed on the response, and the diff job it asks for runs
        let effects = state.press(.char("3"), .char("d"))
        let jobs = BodyJobTests.jobs(effects).filter { if case .diff = $0.work { true } else { false } }
        #expect(jobs.count == 1)
        for job in jobs { BodyJobTests.run(job, into: &state) }
        // Then the diff is against List users' own previous body
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("-  \"n\": 1"), "\(screen)")
        #expect(screen.contains("+  \"n\": 2"), "\(screen)")
        #expect(!screen.contains("other"))
    }
}

@Suite("d compares with the previous response kept in history", .serialized)
struct PreviousFromHistoryTests {
    @Test func dReadsThePreviousResponseOfThisRequestFromHistoryWhenTheSessionHasNone() async throws {
        // Given a history holding two earlier responses of "List users" and one of another file's request
        // of the same name
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previous-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(directory: folder)
        func record(_ file: String, _ body: String) throws {
            try store.record(HistoryEntry(request: .init(method: "GET", url: "http://x/users", name: "List users",
                                                         collectionPath: file),
                                          response: .init(status: 200, headers: [.init("Content-Type", "application/json")],
                                                          bodyBytes: body.utf8.count)), body: Data(body.utf8))
        }
        try record("api/users.http", #"{"v": 1}"#)
        try record("other.http", #"{"v": "other"}"#)
        try record("api/users.http", #"{"v": 2}"#)
        // And the explorer showing the newest of them, recorded under its key, as the only one of this run
        var state = Fixtures.editing()
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, ResponseSessionTests.pane(#"{"v": 2}"#)))
        let key = "List users (api/users.http)"
        _ = update(&state, .historyRecorded(generation: state.generation, requestKey: key, latency: nil))
        // When d is pressed
        let effects = state.press(.char("3"), .char("d"))
        #expect(effects == [.loadPreviousResponse(requestKey: key, skipNewest: true)])
        let queue = ActionQueue {}
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                                       historyDirectory: folder, clipboard: { _ in }), queue: queue)
        defer { runner.shutdown() }
        runner.perform(effects)
        // (the loaded response asks for the diff job, whose answer comes back as another action; a minute at
        // most, as every wait on the shared cores)
        for _ in 0..<6_000 where state.responsePane?.diff == nil {
            for action in queue.drain() { runner.perform(update(&state, action)) }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Then the diff is against this request's previous response, not the other file's
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains(#"-  "v": 1"#), "\(screen)")
        #expect(screen.contains(#"+  "v": 2"#), "\(screen)")
        #expect(!screen.contains("other"))
    }
}

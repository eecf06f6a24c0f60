import CourierApp
import CourierBody
import CourierHTTP
import CourierHistory
import CourierMessage
import CourierTerminal
import Foundation
import Testing

/// A history folder under the temporary directory, removed by `remove()`.
struct TemporaryHistory {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
    var store: HistoryStore { HistoryStore(directory: folder) }
    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The pane as the runner posts it: read from the store off the main loop.
    func loadedPane(requestKey: String? = nil) -> HistoryPaneState {
        var pane = HistoryPaneState(store: store, timeZone: TimeZone(identifier: "UTC")!)
        pane.show(requestKey: requestKey)
        return pane
    }

    /// Records a response of `name` (or of method and URL when nil) taking `seconds`.
    @discardableResult
    func record(name: String?, method: String = "GET", url: String = "http://127.0.0.1:8088/users",
                headers: HTTPHeaders = [], seconds: Double = 0.01) throws -> HistoryEntry {
        let entry = HistoryEntry(request: HistoryEntry.Request(method: method, url: url, name: name, headers: headers),
                                 response: HistoryEntry.Response(status: 200, reason: "OK"),
                                 timing: HistoryEntry.Timing(total: seconds))
        return try store.record(entry, body: Data("{}".utf8))
    }
}

@Suite("the history pane and latency in the explorer")
struct HistoryIntegrationTests {
    @Test func aRecordedResponseSetsItsLatencyAndReloadsTheOpenPane() throws {
        // Given an explorer that sent generation 1, with the history pane open on an empty folder
        let history = TemporaryHistory()
        defer { history.remove() }
        var state = ScreenSnapshotTests.withResponse()
        _ = update(&state, .historyOpened(history.loadedPane()))
        #expect(state.historyPane?.entries.isEmpty == true)
        // When the runner reports the response recorded under "List users"
        try history.record(name: "List users")
        let stats = LatencyStats(durations: [0.010, 0.020, 0.030])
        let effects = update(&state, .historyRecorded(generation: state.generation, requestKey: "List users",
                                                      latency: stats))
        // Then the latency is kept for that key, the shown response has it, and the pane asks for its list again
        #expect(state.latency["List users"] == stats)
        #expect(state.shownLatency == stats)
        #expect(effects == [.readHistory(.list(requestKey: nil))])
        // And once the list is read (off the loop thread) the pane shows the new entry
        _ = update(&state, .historyRead(HistoryPaneRead.list(requestKey: nil).perform(with: history.store)))
        #expect(state.historyPane?.entries.count == 1)
        // And a recording of an older send keeps its latency without claiming the shown response
        _ = update(&state, .historyRecorded(generation: state.generation - 1, requestKey: "GET http://x/", latency: stats))
        #expect(state.latency["GET http://x/"] == stats)
        #expect(state.shownLatency == stats)
        #expect(state.responseKey == "List users")
    }

    @Test func theStatusLineShowsTheSparklineAndPercentilesAfterStatusTimeSizeAndCache() throws {
        // Given a shown response whose request has three recorded times
        var state = ScreenSnapshotTests.withResponse()
        let stats = LatencyStats(durations: [0.010, 0.020, 0.030])
        _ = update(&state, .historyRecorded(generation: state.generation, requestKey: "List users", latency: stats))
        // When drawing the response
        let plain = Screen.render(state).buffer.lines().first { $0.contains("200 OK") } ?? ""
        // Then the latency follows the cache decision on the status line
        #expect(plain.contains(" · \(stats.sparkline()) p50 20 ms · p95 30 ms"), "\(plain)")
        let cache = try #require(plain.range(of: "bypass"))
        let p50 = try #require(plain.range(of: "p50"))
        #expect(cache.upperBound < p50.lowerBound)
        // And a newer response of the same request shows it as well
        let body = #"{"id":1}"#
        let response = HTTPResponse(status: 200, reason: "OK", headers: ["Content-Type": "application/json"],
                                    body: .data(Data(body.utf8)), url: URL(string: "http://x/users")!,
                                    timing: Timing(total: .milliseconds(8)))
        _ = update(&state, .responsePaneReady(generation: 1, try #require(ResponseFormatter.pane(response))))
        let viewer = Screen.render(state).buffer.lines().first { $0.contains("200 OK") } ?? ""
        #expect(viewer.contains("p50 20 ms · p95 30 ms"), "\(viewer)")
    }

    @Test func aNarrowResponsePaneLeavesTheLatencyOutRatherThanCutIt() {
        var state = ScreenSnapshotTests.withResponse(size: Size(width: 60, height: 20))
        let stats = LatencyStats(durations: [0.010, 0.020, 0.030])
        _ = update(&state, .historyRecorded(generation: state.generation, requestKey: "List users", latency: stats))
        let lines = Screen.render(state).buffer.lines()
        #expect(!lines.contains { $0.contains("p50") && !$0.contains("p95") })
    }

    @Test func f2AsksForThisRequestsHistoryAndF3ForAllOfIt() {
        var state = Fixtures.editing()
        // The key names the request and its file, so two files' requests of the same name never mix
        #expect(state.press(Key(.function(2))) == [.openHistory(requestKey: "List users (api/users.http)")])
        #expect(state.press(Key(.function(3))) == [.openHistory(requestKey: nil)])
        #expect(HelpCatalog.paletteItems(state).contains { $0.command == .global(.history) })
        #expect(HelpCatalog.paletteItems(state).contains { $0.command == .global(.historyAll) })
    }

    @Test func theOpenPaneTakesKeysAndEscapeClosesItWhenThereIsNothingToGoBackTo() throws {
        // Given the pane open over two entries
        let history = TemporaryHistory()
        defer { history.remove() }
        try history.record(name: "List users")
        try history.record(name: "Create user")
        var state = Fixtures.editing()
        _ = update(&state, .historyOpened(history.loadedPane()))
        // When opening the selected entry: keys go to the pane, not to the focused pane
        let focus = state.focus
        let effects = state.press(Key(.enter))
        #expect(state.historyPane?.title.contains("entry") == true)
        #expect(state.focus == focus)
        // And its body is read off the loop thread: a placeholder until the read comes back
        let entry = try #require(state.historyPane?.entries.first)
        #expect(effects == [.readHistory(.entry(entry))])
        #expect(Screen.render(state).buffer.lines().contains { $0.contains("(reading the body…)") })
        _ = update(&state, .historyRead(HistoryPaneRead.entry(entry).perform(with: history.store)))
        #expect(Screen.render(state).buffer.lines().contains { $0.contains("{}") })
        // Then Esc goes back to the list, and a second Esc closes the pane
        state.press(Key(.escape))
        #expect(state.historyPane?.title == "History")
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(screen.contains("History"), "\(screen)")
        state.press(Key(.escape))
        #expect(state.historyPane == nil)
    }

    @Test func restoreFillsTheEditorKeepingItsOwnValueForARedactedHeader() throws {
        // Given "Create user" open, and a history entry whose Authorization was redacted
        let history = TemporaryHistory()
        defer { history.remove() }
        try history.record(name: "Create user", method: "PUT", url: "http://127.0.0.1:8088/users/9",
                           headers: [HTTPHeaders.Field("Authorization", "Bearer abc123"),
                                     HTTPHeaders.Field("X-Trace", "t1")])
        var state = Fixtures.loaded()
        let ref = RequestRef(file: Fixtures.usersFile.path, index: 1)
        state.editor = RequestEditorState(draft: Fixtures.usersFile.requests[1], origin: ref)
        _ = update(&state, .historyOpened(history.loadedPane()))
        #expect(state.historyPane?.entries.first?.request.headers.first?.value == "Bearer " + Redactor.mask)
        // When restoring the selected entry
        state.press(.char("r"))
        // Then method, URL and headers are the entry's, the secret header keeps the editor's value
        let draft = state.editor.draft
        #expect(draft.method == "PUT")
        #expect(draft.url == "http://127.0.0.1:8088/users/9")
        #expect(draft.headers["Authorization"] == "Bearer {{token}}")
        #expect(draft.headers["X-Trace"] == "t1")
        #expect(draft.headers["Content-Type"] == nil)
        // And the editor has focus, the pane is closed, and the edit is unsaved
        #expect(state.focus == .request)
        #expect(state.historyPane == nil)
        #expect(state.editor.isDirty)
    }
}

import CourierApp
import CourierBody
import CourierHistory
import CourierMessage
import CourierTerminal
import Foundation
import Testing

/// A history folder in a temporary directory with four responses: two runs of `users` whose bodies and
/// headers differ, a POST to /echo and a 503; removed by `close()`.
private struct HistoryFixture {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-history-\(UUID().uuidString)")
    let store: HistoryStore
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC

    init() throws {
        store = HistoryStore(directory: folder)
        let auth: HTTPHeaders = [.init("Authorization", "Bearer s3cr3t-token"), .init("Accept", "application/json")]
        func users(_ seconds: Double, etag: String, extra: Bool, total: Double, cache: String,
                   body: String) throws {
            var headers: HTTPHeaders = [.init("Content-Type", "application/json"), .init("ETag", etag),
                                        .init("Set-Cookie", "session=abc123")]
            if extra { headers.add("X-Served-By", "edge-2") }
            try store.record(HistoryEntry(date: t0.addingTimeInterval(seconds),
                                          request: .init(method: "GET", url: "http://127.0.0.1:8080/users?page=1",
                                                         name: "users", headers: auth),
                                          response: .init(status: 200, reason: "OK", headers: headers, bodyBytes: body.utf8.count),
                                          timing: .init(total: total), cacheDecision: cache),
                             body: Data(body.utf8))
        }
        try users(0, etag: "\"a\"", extra: false, total: 0.012, cache: "miss",
                  body: #"{"users":[{"id":1,"name":"Ada","age":36}],"total":1}"#)
        try users(60, etag: "\"b\"", extra: true, total: 0.020, cache: "revalidated",
                  body: #"{"users":[{"id":1,"name":"Ada L.","age":36},{"id":2,"name":"Alan","age":41}],"total":2}"#)
        try store.record(HistoryEntry(date: t0.addingTimeInterval(120),
                                      request: .init(method: "POST", url: "http://127.0.0.1:8080/echo"),
                                      response: .init(status: 201, reason: "Created", bodyBytes: 5), timing: .init(total: 0.005)),
                         body: Data("hello".utf8))
        try store.record(HistoryEntry(date: t0.addingTimeInterval(180),
                                      request: .init(method: "GET", url: "http://127.0.0.1:8080/status/503"),
                                      response: .init(status: 503, reason: "Service Unavailable"), timing: .init(total: 0.002)))
    }

    func pane(requestKey: String? = nil) -> HistoryPaneState {
        var pane = HistoryPaneState(store: store, requestKey: requestKey, timeZone: TimeZone(identifier: "UTC")!)
        pane.reload()
        return pane
    }

    func close() { try? FileManager.default.removeItem(at: folder) }
}

private func render(_ pane: HistoryPaneState, width: Int = 80, height: Int = 8) -> Buffer {
    var buffer = Buffer(size: Size(width: width, height: height))
    HistoryPaneView.render(pane, RenderContext(focused: true, area: buffer.area), into: &buffer)
    return buffer
}

extension HistoryPaneState {
    /// A key, and at once the store read it asks for, as the app's effect does off the loop thread.
    mutating func handleNow(key: Key) -> HistoryPaneRequest? { reading(handle(key: key)) }

    /// A command, and at once the store read it asks for.
    mutating func handleNow(_ command: HistoryPaneCommand) -> HistoryPaneRequest? { reading(handle(command)) }

    private mutating func reading(_ request: HistoryPaneRequest?) -> HistoryPaneRequest? {
        guard case .read(let read)? = request else { return request }
        return apply(read.perform(with: store))
    }
}

private func type(_ text: String, into pane: inout HistoryPaneState) {
    for character in text { _ = pane.handleNow(key: .char(character)) }
}

@Suite struct HistoryPaneTests {
    @Test func theListShowsEveryResponseNewestFirstWithItsColumns() throws {
        // Given four kept responses
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        // When the global history is drawn
        let pane = fixture.pane()
        let buffer = render(pane, width: 90)
        // Then they are listed newest first with time, method, name or path, status, duration, size and cache
        Snapshot.assert(buffer, named: "history-list", pane: "history pane")
        #expect(pane.visible.map { $0.response?.status } == [503, 201, 200, 200])
        #expect(pane.selected?.request.url.hasSuffix("/status/503") == true)
    }

    @Test func searchFiltersAsYouTypeAndEnterAlsoMatchesBodies() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane()
        // When `/` opens the search and "users" is typed
        _ = pane.handleNow(key: .char("/"))
        type("users", into: &pane)
        // Then only the two runs of `users` are left, with the search box at the bottom
        Snapshot.assert(render(pane), named: "history-search", pane: "history pane")
        #expect(pane.visible.count == 2)
        #expect(pane.cursor(area: Rect(x: 0, y: 0, width: 80, height: 8)) == Position(x: 6, y: 7))
        // And a word only found in a body matches once the search is committed with Enter
        _ = pane.handleNow(key: Key(.escape))
        _ = pane.handleNow(key: .char("/"))
        type("alan", into: &pane)
        #expect(pane.visible.isEmpty)
        _ = pane.handleNow(key: Key(.enter))
        #expect(pane.visible.map(\.request.name) == ["users"])
        // And Esc in the list clears the search
        _ = pane.handleNow(.back)
        #expect(pane.visible.count == 4)
    }

    @Test func enterShowsTheEntryWithRedactedHeadersAndAPrettyBody() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane(requestKey: "users")
        // When the newest `users` response is opened
        #expect(pane.handleNow(.open) == nil)
        let buffer = render(pane, width: 70, height: 24)
        // Then status, timing, cache, redacted headers and the pretty-printed body are shown
        Snapshot.assert(buffer, named: "history-entry", pane: "history pane")
        #expect(!buffer.lines().joined().contains("s3cr3t"))
        #expect(!buffer.lines().joined().contains("abc123"))
        #expect(pane.title == "History · users · entry")
        // And Esc goes back to the list
        _ = pane.handleNow(.back)
        #expect(pane.title == "History · users")
    }

    @Test func restoreHandsTheSelectedRequestToTheApp() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane()
        // When the POST is selected and `r` pressed
        _ = pane.handleNow(.down)
        let request = pane.handleNow(key: .char("r"))
        // Then the app is asked to restore that entry
        guard case .restore(let entry) = request else {
            Issue.record("expected a restore request, got \(String(describing: request))")
            return
        }
        #expect(entry.request.method == "POST")
        #expect(entry.request.url == "http://127.0.0.1:8080/echo")
    }

    @Test func dDiffsAnEntryWithThePreviousRunOfItsRequest() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane()
        // Given the newest `users` run selected in the global list
        _ = pane.handleNow(.down)
        _ = pane.handleNow(.down)
        // When `d` is pressed
        let request = pane.handleNow(key: .char("d"))
        // Then the pane diffs it against the run before, skipping entries of other requests
        guard case .diff(let older, let newer) = request else {
            Issue.record("expected a diff, got \(String(describing: request))")
            return
        }
        #expect(older.date < newer.date)
        #expect(older.cacheDecision == "miss" && newer.cacheDecision == "revalidated")
        // And shows status, header changes and the body's line diff, unified
        let unified = render(pane, width: 80, height: 24)
        Snapshot.assert(unified, named: "history-diff-unified", pane: "history pane")
        // And the changed words of a modified line are highlighted over the line's colour
        let theme = Theme.dark
        let row = try #require(unified.lines().firstIndex { $0.contains("\"Ada L.\"") })
        let styles = (0..<80).map { unified[$0, row].style }
        #expect(styles.contains(theme.diffAdded.overlaid(by: theme.diffChanged)))
        #expect(styles.contains(theme.diffAdded))
        // And `s` lays the body diff out side by side
        _ = pane.handleNow(key: .char("s"))
        Snapshot.assert(render(pane, width: 100, height: 24), named: "history-diff-side-by-side", pane: "history pane")
        #expect(pane.title == "History · diff side by side")
        // And scrolling stops with the last row at the bottom of a pane `pageSize` rows high
        pane.pageSize = 8
        _ = pane.handleNow(.bottom)
        let bottom = render(pane, width: 100, height: 8).lines()
        #expect(bottom.last?.hasPrefix(" }") == true)
        _ = pane.handleNow(.up)
        #expect(render(pane, width: 100, height: 8).lines() != bottom)
    }

    @Test func theOldestRunHasNothingToCompareWith() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane(requestKey: "users")
        _ = pane.handleNow(.bottom)
        #expect(pane.handleNow(.diff) == .message("no earlier response of users to compare with"))
    }

    @Test func twoMarkedEntriesAreDiffedOlderFirst() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane()
        // When the 503 and the POST are marked with space (the selection moves down after each)
        _ = pane.handleNow(key: .char(" "))
        _ = pane.handleNow(key: .char(" "))
        #expect(pane.marked.count == 2)
        // Then `d` diffs them, the older first
        guard case .diff(let older, let newer) = pane.handleNow(.diff) else {
            Issue.record("expected a diff")
            return
        }
        #expect(older.request.method == "POST")
        #expect(newer.response?.status == 503)
        let text = render(pane, width: 80, height: 12).lines().joined(separator: "\n")
        #expect(text.contains("status: 201 Created → 503 Service Unavailable"))
    }

    @Test func oneMarkedEntryIsDiffedWithTheSelectedOne() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane()
        // When the 503 is marked (the selection moves down to the POST) and the selection goes on to a users run
        _ = pane.handleNow(key: .char(" "))
        _ = pane.handleNow(.down)
        #expect(pane.marked.count == 1)
        // Then `d` diffs the marked entry with the selected one, not the selected one with its previous run
        guard case .diff(let older, let newer) = pane.handleNow(.diff) else {
            Issue.record("expected a diff")
            return
        }
        #expect(older.request.name == "users" && older.response?.status == 200)
        #expect(newer.response?.status == 503)
    }

    @Test func scopeSwitchesBetweenOneRequestAndEveryRequest() throws {
        let fixture = try HistoryFixture()
        defer { fixture.close() }
        var pane = fixture.pane()
        _ = pane.handleNow(.down)
        _ = pane.handleNow(.down)
        _ = pane.handleNow(.toggleScope)
        #expect(pane.requestKey == "users")
        #expect(pane.visible.count == 2)
        _ = pane.handleNow(.toggleScope)
        #expect(pane.requestKey == nil)
        #expect(pane.visible.count == 4)
    }

    @Test func anEmptyHistorySaysWhereResponsesWillAppear() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-history-\(UUID().uuidString)")
        var pane = HistoryPaneState(store: HistoryStore(directory: folder), timeZone: TimeZone(identifier: "UTC")!)
        #expect(pane.reload() == nil)
        #expect(render(pane).lines()[0] == "Responses are kept here as requests are sent.")
        #expect(pane.handleNow(.restore) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}

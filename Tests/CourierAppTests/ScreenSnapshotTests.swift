import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

@Suite("screens as text grids")
struct ScreenSnapshotTests {
    /// A fixed log row time, so snapshots do not depend on the clock.
    static let noon = Date(timeIntervalSince1970: 1_700_000_000)

    static func withResponse(size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = Fixtures.editing(size: size)
        state.timeZone = TimeZone(identifier: "UTC")!
        state.clock = { noon }
        state.press(Key(.enter))
        let id = RequestID(41)
        let url = URL(string: "http://127.0.0.1:8088/users?page=1")!
        _ = update(&state, .clientEvent(.attemptStarted(id, attempt: 1, method: .get, url: url, headers: [:], at: noon)))
        _ = update(&state, .clientEvent(.attemptFinished(id, attempt: 1, outcome: .response(status: 503, headers: [:]),
                                                         timing: Timing(total: .milliseconds(12)))))
        _ = update(&state, .clientEvent(.retryScheduled(id, attempt: 1, reason: "503 Service Unavailable",
                                                        delay: .seconds(1))))
        _ = update(&state, .clientEvent(.attemptStarted(id, attempt: 2, method: .get, url: url, headers: [:], at: noon)))
        _ = update(&state, .clientEvent(.attemptFinished(id, attempt: 2, outcome: .response(status: 200, headers: [:]),
                                                         timing: Timing(total: .milliseconds(8)))))
        let body = #"{"data":[{"id":1,"name":"Ada","active":true,"tags":[]}],"total":1}"#
        let response = HTTPResponse(status: 200, reason: "OK", headers: ["Content-Type": "application/json"],
                                    body: .data(Data(body.utf8)), url: url,
                                    timing: Timing(total: .milliseconds(8)))
        _ = update(&state, .responsePaneReady(generation: 1, ResponseFormatter.pane(response)!))
        return state
    }

    @Test func theFullLayoutWithARequestResponseAndLog() {
        let state = Self.withResponse()
        Snapshot.assert(state, named: "full-120x40")
    }

    @Test func theResponseViewerSearchesTheBodyAndMarksTheMatch() throws {
        // Given a response shown through the response viewer component
        var state = Self.withResponse(size: Size(width: 100, height: 30))
        let body = #"{"data":[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]}"#
        let response = HTTPResponse(status: 200, reason: "OK", headers: ["Content-Type": "application/json"],
                                    body: .data(Data(body.utf8)), url: URL(string: "http://x/users")!,
                                    timing: Timing(total: .milliseconds(8)))
        _ = update(&state, .responsePaneReady(generation: 1, try #require(ResponseFormatter.pane(response))))
        Snapshot.assert(state, named: "viewer-100x30")
        // When searching for Grace from the response pane
        state.press(.char("3"), .char("/"))
        #expect(state.isTyping)
        state.type("Grace")
        state.press(Key(.enter))
        // Then the viewer found it and keys are commands again
        #expect(!state.isTyping)
        #expect(state.responsePane?.search != nil)
        // And a stale viewer (an older generation) never replaces the shown one
        _ = update(&state, .responsePaneReady(generation: 0, try #require(ResponseFormatter.pane(response))))
        #expect(state.responsePane?.search != nil)
    }

    @Test func loadingShowsBeforeTheCollectionArrives() {
        let state = AppState(size: Size(width: 100, height: 24), collectionPath: "Collections/demo.http")
        Snapshot.assert(state, named: "loading-100x24")
    }

    @Test func everyPaneAtTheSmallestSupportedSize() {
        var state = Self.withResponse(size: Size(width: 60, height: 15))
        for pane in PaneID.allCases where pane != .log {
            state.press(.char(Character(String(pane.rawValue))))
            Snapshot.assert(state, named: "small-60x15-\(pane.title.lowercased())")
        }
    }

    @Test func belowTheMinimumATooSmallMessage() {
        var state = Fixtures.loaded()
        _ = update(&state, .input(.resize(Size(width: 40, height: 10))))
        Snapshot.assert(state, named: "too-small-40x10")
        #expect(Snapshot.screen(state).joined().contains("Terminal too small"))
    }

    @Test func theRequestEditorsHeadersAndOptionsTabs() {
        var state = Fixtures.loaded(size: Size(width: 100, height: 24))
        // (the request has a body, so it opens on the Body tab; Headers is the one before it)
        state.press(.char("j"), Key(.enter), .char("h"))
        Snapshot.assert(state, named: "request-headers-100x24")
        state.press(.char("J"))
        Snapshot.assert(state, named: "request-options-100x24")
    }

    @Test func unknownVariablesAreMarkedAndResolvedOnDemand() {
        var state = Fixtures.editing(size: Size(width: 100, height: 24))
        state.environment = nil
        let lines = Snapshot.screen(state)
        #expect(lines.contains { $0.contains("GET {{base}}/users?page=1") })
        state.environment = "dev"
        state.press(.char("v"))
        #expect(Snapshot.screen(state).contains { $0.contains("GET http://127.0.0.1:8088/users?page=1") })
        // The unknown variable is drawn in the error style, underlined.
        var unknown = Fixtures.editing(size: Size(width: 100, height: 24))
        unknown.environment = nil
        let buffer = Screen.render(unknown).buffer
        let row = buffer.lines().firstIndex { $0.contains("{{base}}") }!
        let column = buffer.lines()[row].distance(of: "{{base}}")
        #expect(buffer[column, row].style.attributes.contains(.underline))
    }

    @Test func helpAndPaletteModals() {
        var state = Fixtures.loaded(size: Size(width: 100, height: 30))
        state.press(.char("?"))
        Snapshot.assert(state, named: "help-100x30")
        state.press(Key(.escape), .char(":"))
        state.type("theme")
        Snapshot.assert(state, named: "palette-100x30")
    }

    @Test func hostileResponseTextIsShownAsSymbolsNeverAsEscapes() {
        var state = Fixtures.editing()
        state.press(Key(.enter))
        let body = "title\u{1B}]0;pwned\u{07} and \u{1B}[2J clear\r\nbell\u{07}"
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: .data(Data(body.utf8)),
                                    url: URL(string: "http://x/")!)
        _ = update(&state, .responsePaneReady(generation: 1, ResponseFormatter.pane(response)!))
        let backend = TestBackend(size: state.size)
        let (buffer, cursor) = Screen.render(state)
        backend.draw(buffer, cursor: cursor)
        #expect(!backend.writtenText.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(backend.lines.contains { $0.contains("title␛]0;pwned␇ and ␛[2J clear") })
    }
}

extension String {
    /// The display column where `needle` starts (ASCII before it).
    func distance(of needle: String) -> Int {
        guard let range = range(of: needle) else { return 0 }
        return self[..<range.lowerBound].count
    }
}

import CourierApp
import CourierHTTP
import CourierTerminal
import Testing

@Suite("update: the request editor and live mode")
struct RequestEditorTests {
    @Test func editingTheQueryTabRewritesTheURLAndBack() {
        var state = Fixtures.editing()
        // When adding a line to the query tab
        state.press(.char("j"), .char("e"), Key(.end), Key(.enter))
        state.type("limit=5")
        #expect(state.editor.url.text == "{{base}}/users?page=1&limit=5")
        // And when the URL changes, the query tab follows
        state.press(Key(.escape), .char("k"), .char("e"), .ctrl("w"))
        #expect(state.editor.query.text == "page=1\nlimit=")
    }

    @Test func theAuthTabEditsTheAuthorizationHeaderInItsPlace() {
        var state = Fixtures.loaded()
        state.press(.char("j"), Key(.enter))
        #expect(state.editor.auth.text == "Bearer {{token}}")
        #expect(!state.editor.headers.text.contains("Authorization"))
        // A request with a body opens on the Body tab (what Enter sends); Auth is the next one
        #expect(state.editor.tab == .body)
        state.press(.char("l"), .char("e"), .ctrl("a"), .ctrl("k"))
        state.type("Bearer other")
        let fields = state.editor.draft.headers.fields.map(\.name)
        #expect(fields == ["Content-Type", "Authorization"])
        #expect(state.editor.draft.headers["Authorization"] == "Bearer other")
    }

    @Test func aRequestOpensOnItsFirstTabWithSomethingInItAndTheTitlesCountLines() {
        func opened(_ url: String, _ headers: [(String, String)] = []) -> RequestEditorState {
            let fields = headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }
            return RequestEditorState(draft: RequestDraft(name: "r", url: url, headers: HTTPHeaders(fields)),
                                      origin: nil)
        }
        // Headers alone: the Headers tab, not "No query parameters"
        let headersOnly = opened("{{host}}/things", [("Accept", "application/json"), ("X-Trace", "1")])
        #expect(headersOnly.tab == .headers)
        #expect(headersOnly.count(of: .headers) == 2 && headersOnly.count(of: .query) == 0)
        // A query comes before headers; an Authorization header alone opens the Auth tab
        #expect(opened("/s?q=1&page=2", [("Accept", "*/*")]).tab == .query)
        #expect(opened("/s?q=1&page=2").count(of: .query) == 2)
        #expect(opened("/me", [("Authorization", "Bearer {{token}}")]).tab == .auth)
        #expect(opened("/").tab == .query)
        // The tab row says how many lines a tab holds before it is opened
        var state = Fixtures.loaded()
        state.editor = headersOnly
        #expect(Snapshot.screen(state).contains { $0.contains("Query  Headers (2)  Body  Auth  Options") })
    }

    @Test func methodCyclesAndOptionsSetTimeoutAttemptsAndCacheMode() {
        var state = Fixtures.editing()
        state.press(.char("m"))
        #expect(state.editor.method == "POST")
        state.press(.char("M"), .char("J"))
        #expect(state.editor.tab == .options && state.editor.option == .retries)
        state.press(.char("e"))
        state.type("1")
        state.press(Key(.escape), .char("J"), .char("e"))
        let draft = state.editor.draft
        #expect(draft.method == "GET")
        #expect(draft.maxAttempts == 1)
        #expect(draft.cacheMode == .revalidate)
    }

    @Test func undoRevertsATypedWordInOneStep() {
        var state = Fixtures.editing()
        state.press(.char("e"))
        state.type("&abc")
        state.press(.ctrl("_"))
        #expect(state.editor.url.text == "{{base}}/users?page=1")
    }

    @Test func ctrlUClearsTheURLUpToTheCursorAndUndoBringsItBack() {
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end), .ctrl("u"))
        #expect(state.editor.url.text == "")
        state.press(.ctrl("_"))
        #expect(state.editor.url.text == "{{base}}/users?page=1")
    }

    @Test func pasteGoesIntoTheFieldBeingEdited() {
        var state = Fixtures.editing()
        state.press(.char("e"))
        _ = update(&state, .input(.paste("&q=a b\nc")))
        #expect(state.editor.url.text == "{{base}}/users?page=1&q=a b c")
    }

    @Test func liveModeSendsEveryEditThroughTheDebounceWithNewGenerations() {
        // Given live mode on a GET
        var state = Fixtures.editing()
        state.press(.char("L"))
        #expect(state.live)
        // When typing three characters
        state.press(.char("e"))
        let effects = state.type("&ab")
        // Then each edit submits a newer generation with the debounce
        let generations = effects.compactMap { effect -> Int? in
            if case .sendLive(let generation, _, let debounce) = effect, debounce == .milliseconds(300) { return generation }
            return nil
        }
        #expect(generations == [1, 2, 3])
        #expect(state.inFlight == 3)
        // And a late answer to an older generation is dropped
        _ = update(&state, .sendCancelled(generation: 2))
        #expect(state.inFlight == 3)
    }

    @Test func liveModeOnANonIdempotentMethodAsksFirst() {
        var state = Fixtures.loaded()
        state.press(.char("j"), Key(.enter), .char("L"))
        #expect(!state.live)
        guard case .confirm(let confirm)? = state.modals.last else {
            Issue.record("expected a confirmation")
            return
        }
        #expect(confirm.onYes == .enableLive)
        state.press(.char("y"))
        #expect(state.live)
    }

    @Test func switchingLiveModeToAPostTurnsItOff() {
        var state = Fixtures.editing()
        state.press(.char("L"), .char("m"))
        #expect(state.editor.method == "POST")
        #expect(!state.live)
    }

    @Test func theTitleShowsDirtyAndLiveState() {
        var state = Fixtures.editing()
        state.press(.char("L"), .char("e"))
        state.type("x")
        let top = Screen.render(state).buffer.lines()[0]
        #expect(top.contains("Request · List users ● · LIVE"))
    }
}

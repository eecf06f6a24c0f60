import CourierApp
import CourierBody
import Foundation
import CourierHTTP
import CourierTerminal
import Testing

@Suite("update: focus, sending, cancelling, quitting")
struct UpdateTests {
    @Test func loadingACollectionShowsItsTreeAndKeepsTheEnvironment() {
        // Given a fresh state still loading
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "Collections", environment: "dev")
        #expect(state.loading == .loading(path: "Collections"))
        // When the collection arrives
        let effects = update(&state, .collectionLoaded(Fixtures.collection))
        // Then it is shown with folders, files and requests, and nothing else is asked for
        #expect(effects.isEmpty)
        #expect(state.loading == .loaded)
        let labels = state.tree.rows(state.collection).map(\.label)
        #expect(labels == ["api", "users.http", "List users", "Create user", "Delete user", "demo.http", "Search", "Ticker"])
    }

    @Test func tabAndNumbersMoveFocusAndShiftTabGoesBack() {
        var state = Fixtures.loaded()
        state.press(Key(.tab))
        #expect(state.focus == .request)
        state.press(Key(.tab, shift: true), Key(.tab, shift: true))
        #expect(state.focus == .webSocket)
        state.press(.char("3"))
        #expect(state.focus == .response)
    }

    @Test func atStartTheFirstRequestIsSelectedAndOpenAndEnterSendsIt() {
        // Given the collection just loaded, with one environment and no environment asked for
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "Collections")
        _ = update(&state, .collectionLoaded(Fixtures.collection))
        // Then that environment is chosen, and the first request is selected (not its folder) and open
        #expect(state.environment == "dev")
        #expect(state.tree.selectedRow(state.collection)?.label == "List users")
        #expect(state.editor.name == "List users")
        #expect(state.editor.url.text == "{{base}}/users?page=1")
        #expect(state.editor.query.text == "page=1")
        #expect(!state.editor.isDirty)
        // When pressing Enter in the collection pane
        let effects = state.press(Key(.enter))
        // Then the request is sent at once, and the editor has focus
        #expect(effects.contains { if case .send(generation: 1, _) = $0 { true } else { false } })
        #expect(state.focus == .request)
        #expect(state.inFlight == 1)
    }

    @Test func atSixtyColumnsSendingShowsTheResponsePaneAndTheStatusBarSaysSending() {
        var state = Fixtures.loaded(size: Size(width: 60, height: 20))
        state.press(Key(.enter))
        #expect(state.focus == .response)
        let screen = Snapshot.screen(state)
        #expect(screen.last?.contains("sending 'List users'") == true, "\(screen.joined(separator: "\n"))")
    }

    @Test func atEightyColumnsTheResponsePaneIsOnScreenBesideTheCollectionWhileSending() {
        var state = Fixtures.loaded(size: Size(width: 80, height: 24))
        state.press(Key(.enter))
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("1 Collection") && screen.contains("3 Response"), "\(screen)")
        #expect(screen.contains("sending 'List users'"), "\(screen)")
        // With the Log in the response's place, sending (from the palette) brings the response back
        state.press(.char("4"), .char(":"))
        state.type("Everywhere: send")
        state.press(Key(.enter))
        #expect(state.focus == .response)
    }

    @Test func anUnknownVariableSaysWhereValuesComeFrom() {
        var state = Fixtures.loaded()
        state.press(Key(.enter))
        let failure = SendFailure(kind: .unknownVariable, message: "unknown variable 'base' in request 'x'")
        _ = update(&state, .sendFailed(generation: 1, failure))
        guard case .failed(let shown) = state.response.phase else {
            Issue.record("expected a failure")
            return
        }
        #expect(shown.message == "unknown variable 'base' in request 'x': not in environment 'dev' (E environments: dev)")
    }

    @Test func enterSendsWithANewGenerationAndMarksTheResponseAsSending() {
        var state = Fixtures.editing()
        let effects = state.press(Key(.enter))
        #expect(state.generation == 1)
        #expect(state.inFlight == 1)
        guard case .send(let generation, let job)? = effects.first else {
            Issue.record("expected a send, got \(effects)")
            return
        }
        #expect(generation == 1)
        #expect(job.ref == RequestRef(file: "api/users.http", index: 0))
        #expect(job.environment == "dev")
        #expect(job.draft.url == "{{base}}/users?page=1")
        #expect(state.response.phase == .sending(method: "GET", url: "http://127.0.0.1:8088/users?page=1"))
    }

    @Test func aResponseFromAnOlderGenerationIsDropped() {
        // Given two sends in a row
        var state = Fixtures.editing()
        state.press(Key(.enter))
        state.press(Key(.enter))
        #expect(state.generation == 2)
        // When the first one's answer arrives late
        _ = update(&state, .responsePaneReady(generation: 1, summary(status: 500)))
        // Then it is ignored, and the newer one is shown when it comes
        #expect(state.inFlight == 2)
        _ = update(&state, .responsePaneReady(generation: 2, summary(status: 200)))
        #expect(state.inFlight == nil)
        #expect(state.response.phase == .received)
        #expect(state.responsePane?.info.status == 200)
    }

    @Test func ctrlCCancelsTheRequestInFlightWithoutQuitting() {
        var state = Fixtures.editing()
        state.press(Key(.enter))
        let effects = state.press(.ctrl("c"))
        #expect(effects == [.cancelSend])
        #expect(!state.shouldQuit)
        #expect(state.response.phase == .cancelled)
        // A result of the cancelled generation no longer lands.
        _ = update(&state, .responsePaneReady(generation: 1, summary(status: 200)))
        #expect(state.response.phase == .cancelled)
    }

    @Test func ctrlCWithNothingInFlightOnlySaysSo() {
        var state = Fixtures.editing()
        let effects = state.press(.ctrl("c"))
        #expect(effects.isEmpty)
        #expect(!state.shouldQuit)
        #expect(state.status?.text == "No request in flight")
    }

    @Test func qQuitsAtOnceWithoutEditsAndAsksWithThem() {
        var clean = Fixtures.editing()
        clean.press(.char("q"))
        #expect(clean.shouldQuit)

        var dirty = Fixtures.editing()
        dirty.press(.char("e"))
        dirty.type("&x=1")
        dirty.press(Key(.escape), .char("q"))
        #expect(!dirty.shouldQuit)
        guard case .confirm(let confirm)? = dirty.modals.last else {
            Issue.record("expected a confirmation")
            return
        }
        #expect(confirm.onYes == .quit)
        dirty.press(.char("n"))
        #expect(!dirty.shouldQuit && dirty.modals.isEmpty)
        dirty.press(.char("q"), .char("y"))
        #expect(dirty.shouldQuit)
    }

    @Test func zoomShowsOnlyTheFocusedPaneAndFollowsFocus() {
        var state = Fixtures.loaded()
        state.press(.char("z"))
        #expect(state.layout.panes.keys.sorted { $0.rawValue < $1.rawValue } == [.collection])
        state.press(.char("3"))
        #expect(state.layout.panes.keys.sorted { $0.rawValue < $1.rawValue } == [.response])
        state.press(.char("z"))
        #expect(state.layout.panes.count == 5)
    }

    @Test func ctrlSSavesTheEditedDraftIntoItsFile() {
        // Given an edited URL
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end))
        state.type("&limit=5")
        state.press(Key(.escape))
        #expect(state.editor.isDirty)
        // When saving
        let effects = state.press(.ctrl("s"))
        // Then the save effect carries the request's place and the new URL
        guard case .save(let ref, let draft)? = effects.first else {
            Issue.record("expected a save, got \(effects)")
            return
        }
        #expect(ref == RequestRef(file: "api/users.http", index: 0))
        #expect(draft.url == "{{base}}/users?page=1&limit=5")
        // And when the save finishes, the editor is clean again
        _ = update(&state, .saveFinished(ref, Fixtures.collection))
        #expect(!state.editor.isDirty)
        #expect(state.status?.kind == .success)
    }

    @Test func savingWithoutEditsSaysThereIsNothingToSave() {
        var state = Fixtures.editing()
        #expect(state.press(.ctrl("s")).isEmpty)
        #expect(state.status?.text == "No changes to save")
    }

    @Test func typingIntoTheURLDoesNotTriggerGlobalKeys() {
        // Given the URL being edited
        var state = Fixtures.editing()
        state.press(.char("e"))
        // When typing characters that are global commands elsewhere
        state.type("q:z1?")
        // Then they are text
        #expect(state.editor.url.text.hasSuffix("q:z1?"))
        #expect(!state.shouldQuit && state.zoomed == nil && state.modals.isEmpty && state.focus == .request)
    }

    @Test func resizeBelowTheMinimumShowsTooSmallAndBackRestores() {
        var state = Fixtures.loaded()
        _ = update(&state, .input(.resize(Size(width: 50, height: 12))))
        #expect(state.isTooSmall)
        _ = update(&state, .input(.resize(Size(width: 60, height: 15))))
        #expect(!state.isTooSmall)
    }

    @Test func aWebSocketRequestConnectsInsteadOfSending() {
        var state = Fixtures.loaded()
        // Enter on the request in the collection opens it and connects, as Enter sends an HTTP request
        let effects = state.press(.char("G"), Key(.enter))
        #expect(state.editor.kind == .websocket)
        #expect(state.webSocketPane.savedMessages.map(\.text) == ["{\"subscribe\": \"ACME\"}"])
        // The connection is the request's (headers, cookies, TLS settings), resolved by the runner
        #expect(effects == [.webSocketConnect(job: SendJob(ref: state.editor.origin, draft: state.editor.draft,
                                                           environment: state.environment), subscriptions: [])])
        #expect(state.focus == .webSocket)
        #expect(state.generation == 0)
        // And in the WebSocket pane, keys go to its send box while it is open
        state.press(.char("i"))
        #expect(state.isTyping)
        state.type("q")
        #expect(!state.shouldQuit)
    }

    func summary(status: Int) -> ResponsePaneState {
        ResponsePaneState(info: ResponsePaneInfo(status: status, reason: "", headers: [.init("Content-Type", "application/json")]),
                          body: BodyDocument(data: Data("{}".utf8)))
    }
}

@Suite("update: the cache compare view over the response")
struct CompareViewTests {
    @Test func cOpensTheCompareViewRRevalidatesAndEscapeCloses() {
        // Given a request open and the response pane focused
        var state = Fixtures.editing()
        state.press(.char("3"))
        // When pressing c
        let open = state.press(.char("c"))
        guard case .openCompare(let job)? = open.first else {
            Issue.record("expected the compare view to be asked for, got \(open)")
            return
        }
        #expect(job.ref == RequestRef(file: "api/users.http", index: 0))
        _ = update(&state, .compareOpened(ComparePaneState(title: "GET http://127.0.0.1:8088/users?page=1")))
        #expect(state.comparePane != nil)
        #expect(Screen.render(state).buffer.text.contains("GET http://127.0.0.1:8088/users?page=1"))
        // Then r revalidates now, and the result is loaded into the view
        let revalidate = state.press(.char("r"))
        #expect(revalidate == [.revalidate(job)])
        #expect(state.comparePane?.isRevalidating == true)
        _ = update(&state, .compareRevalidated(nil, failure: nil))
        #expect(state.comparePane?.isRevalidating == false)
        #expect(state.comparePane?.message?.contains("Nothing is stored") == true)
        // And Escape closes it
        state.press(Key(.escape))
        #expect(state.comparePane == nil)
    }
}

import CourierApp
import CourierBody
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// Moving in the collection shows a request; only Enter (or the send key) sends it.
@Suite("update: see, then send")
struct SeeThenSendTests {
    @Test func movingTheCursorShowsTheRequestAndItsLastResponseWithoutSendingOrMovingTheFocus() {
        // Given the tree focused, "List users" open at start and answered
        var state = Fixtures.loaded()
        let sent = state.press(Key(.enter))
        #expect(sent.contains { if case .send = $0 { true } else { false } })
        guard case .send(let generation, _)? = sent.last else { return }
        let info = ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", "application/json")])
        _ = update(&state, .responsePaneReady(generation: generation, ResponsePaneState(
            info: info, body: BodyDocument(data: Data(#"["ada"]"#.utf8)))))
        state.press(.char("1"))
        // When moving down with j, then with the arrow
        let moved = state.press(.char("j"))
        // Then the Request pane shows "Create user", the Response pane its (empty) session, nothing was sent
        #expect(moved.isEmpty)
        #expect(state.focus == .collection)
        #expect(state.editor.name == "Create user")
        #expect(state.editor.method == "POST")
        #expect(state.response.phase == .idle)
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("2 Request · Create user"))
        #expect(screen.contains("No response yet"))
        // And moving back up shows "List users" with its last response again, still without sending
        #expect(state.press(Key(.up)).isEmpty)
        #expect(state.editor.name == "List users")
        #expect(Snapshot.screen(state).joined(separator: "\n").contains("200 OK"))
    }

    @Test func enterSendsTheRequestTheCursorShows() {
        // Given the cursor moved onto "Delete user"
        var state = Fixtures.loaded()
        state.press(.char("j"), .char("j"))
        #expect(state.editor.name == "Delete user")
        // When pressing Enter
        let effects = state.press(Key(.enter))
        // Then the shown request is what goes out
        guard case .send(_, let job)? = effects.last else {
            Issue.record("expected a send, got \(effects)")
            return
        }
        #expect(job.draft.name == "Delete user")
        #expect(job.draft.method == "DELETE")
    }

    @Test func anUnsafeRequestIsNeverSentByMovingOrClickingEvenInLiveMode() {
        // Given live mode on for "List users", edited in the editor
        var state = Fixtures.editing()
        state.press(.char("L"))
        #expect(state.live)
        // When moving onto the POST and the DELETE below it, and clicking on them
        state.press(.char("1"))
        var effects = state.press(.char("j"))
        // Then live mode is off as soon as the POST shows, said in the status bar
        #expect(!state.live)
        #expect(state.status?.text == "Live mode off: POST is not idempotent")
        effects += state.press(.char("j"))
        effects += update(&state, .input(.mouse(MouseEvent(kind: .press, position: Position(x: 3, y: 4)))))
        effects += update(&state, .input(.mouse(MouseEvent(kind: .press, position: Position(x: 3, y: 5)))))
        // And nothing was sent, the clicked request is shown
        #expect(!effects.contains { if case .send = $0 { true } else if case .sendLive = $0 { true } else { false } },
                "\(effects)")
        #expect(state.editor.name == "Delete user")
    }

    @Test func aMovingCursorKeepsEachRequestsDraft() {
        // Given an edit to "List users"
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end))
        state.type("&x")
        // When moving away and back with the cursor alone
        state.press(Key(.escape), .char("1"), .char("j"))
        #expect(state.editor.name == "Create user")
        #expect(state.drafts.count == 1)
        state.press(.char("k"))
        // Then the edit is there again
        #expect(state.editor.url.text == "{{base}}/users?page=1&x")
        #expect(state.editor.isDirty)
    }

    @Test func typingAFilterShowsItsBestMatch() {
        var state = Fixtures.loaded()
        state.press(.char("/"))
        state.type("delete")
        #expect(state.editor.name == "Delete user")
        #expect(state.tree.filtering)
    }
}

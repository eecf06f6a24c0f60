import CourierApp
import CourierTerminal
import Testing

/// Unsaved edits can be dropped, of one request or of all, by key, palette and help; a reload says it is done.
@Suite("update: discarding drafts, reloading")
struct DiscardDraftTests {
    @Test func uDiscardsTheOpenRequestsEditsAndUInTheFieldBringsThemBack() {
        // Given an edit to the URL of "List users"
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end))
        state.type("&x")
        state.press(Key(.escape))
        #expect(state.editor.isDirty)
        // When pressing U
        state.press(.char("U"))
        // Then the request is as its file has it, the tree has no mark, and the status bar says how to undo
        #expect(state.editor.url.text == "{{base}}/users?page=1")
        #expect(!state.editor.isDirty)
        #expect(!Snapshot.screen(state).contains { $0.contains("List users ●") })
        #expect(state.status?.text == "Discarded the edits to 'List users' (u in a field brings its edit back)")
        // And u brings the edit back
        state.press(.char("u"))
        #expect(state.editor.url.text == "{{base}}/users?page=1&x")
    }

    @Test func altUAsksThenDropsEveryDraft() {
        // Given drafts of two requests, one of them open
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end))
        state.type("&x")
        state.press(Key(.escape), .char("1"), .char("j"), .char("2"), .char("e"), Key(.end))
        state.type("/1")
        state.press(Key(.escape))
        #expect(state.drafts.count == 1 && state.editor.isDirty)
        // When pressing Alt-u
        state.press(Key(.character("u"), alt: true))
        // Then it asks, naming both, and only y drops them
        guard case .confirm(let confirm)? = state.modals.last else {
            Issue.record("expected a confirmation")
            return
        }
        #expect(confirm.message == "Discard the unsaved edits to 2 requests (Create user, List users)?")
        state.press(.char("y"))
        #expect(state.drafts.isEmpty)
        #expect(!state.editor.isDirty)
        #expect(!Snapshot.screen(state).contains { $0.contains("●") })
        // And quitting no longer asks
        state.press(.char("q"))
        #expect(state.shouldQuit)
    }

    @Test func bothDiscardsAreInHelpAndThePalette() {
        let help = HelpCatalog.lines.joined(separator: "\n")
        #expect(help.contains("U") && help.contains("discard this request's unsaved edits"))
        #expect(help.contains("Alt-u") && help.contains("discard every request's unsaved edits"))
        let state = Fixtures.loaded()
        let found = HelpCatalog.paletteMatches(state, filter: "discard").map(\.help)
        #expect(found.contains("Everywhere: discard this request's unsaved edits (u in a field undoes)"))
        #expect(found.contains("Everywhere: discard every request's unsaved edits"))
    }

    @Test func aReloadSaysWhenItIsDoneAndWhatItKept() {
        // Given a draft and a reload asked for
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end))
        state.type("&x")
        state.press(Key(.escape))
        state.press(.ctrl("r"))
        #expect(state.status?.text == "Reloading Collections…")
        // When the collection arrives
        _ = update(&state, .collectionLoaded(Fixtures.collection))
        // Then the status bar says the reload is done, and that the draft was kept
        #expect(state.status?.text == "Reloaded Collections: 5 requests; unsaved edits kept in 1 (Alt-u discards them)")
    }
}

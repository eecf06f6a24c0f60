import CourierApp
import CourierTerminal
import Testing

@Suite("update: the collection pane")
struct CollectionPaneTests {
    @Test func slashFiltersFuzzilyAndEnterOpensTheFirstMatch() {
        // Given the tree
        var state = Fixtures.loaded()
        // When filtering for "crus" (Create USer, fuzzily)
        state.press(.char("/"))
        state.type("crus")
        // Then only the matching request and its groups remain, the request selected
        let rows = state.tree.rows(state.collection)
        #expect(rows.map(\.label) == ["api", "users.http", "Create user"])
        #expect(state.tree.selectedRow(state.collection)?.label == "Create user")
        // And Enter opens it
        state.press(Key(.enter))
        #expect(state.editor.name == "Create user")
        #expect(state.focus == .request)
    }

    @Test func escapeClearsTheFilter() {
        var state = Fixtures.loaded()
        state.press(.char("/"))
        state.type("zzz")
        #expect(state.tree.rows(state.collection).isEmpty)
        state.press(Key(.escape))
        #expect(state.tree.rows(state.collection).count == 8)
        #expect(!state.tree.filtering)
    }

    @Test func collapsingAFolderHidesItsRequests() {
        var state = Fixtures.loaded()
        // The first request is selected at start; the folder is the first row.
        state.press(.char("g"), Key(.enter))
        #expect(state.tree.rows(state.collection).map(\.label) == ["api", "demo.http", "Search", "Ticker"])
        state.press(.char(" "))
        #expect(state.tree.rows(state.collection).count == 8)
    }

    @Test func newAsksForANameThenAddsToTheSelectedFile() {
        var state = Fixtures.loaded()
        state.press(.char("j"), .char("j"), .char("n"))
        guard case .prompt = state.modals.last else {
            Issue.record("expected a prompt")
            return
        }
        state.type("Ping")
        let effects = state.press(Key(.enter))
        guard case .collectionEdit(.add(let file, let draft))? = effects.first else {
            Issue.record("expected an add, got \(effects)")
            return
        }
        #expect(file == "api/users.http")
        #expect(draft.name == "Ping")
        #expect(draft.url == "{{base}}/")
    }

    @Test func duplicateRenameAndDeleteTargetTheSelectedRequest() {
        var state = Fixtures.loaded()
        state.press(.char("j"))
        let ref = RequestRef(file: "api/users.http", index: 1)
        #expect(state.press(.char("d")) == [.collectionEdit(.duplicate(ref))])

        state.press(.char("r"))
        state.press(.ctrl("a"), .ctrl("k"))
        state.type("Make user")
        #expect(state.press(Key(.enter)) == [.collectionEdit(.rename(ref, to: "Make user"))])

        state.press(.char("x"))
        guard case .confirm(let confirm)? = state.modals.last else {
            Issue.record("expected a confirmation before deleting")
            return
        }
        #expect(confirm.onYes == .deleteRequest(ref))
        #expect(state.press(.char("y")) == [.collectionEdit(.delete(ref))])
    }

    @Test func switchingRequestsKeepsEachOnesUnsavedDraftWithoutAsking() {
        // Given an unsaved edit to "List users"
        var state = Fixtures.editing()
        state.press(.char("e"), Key(.end))
        state.type("&x")
        // When opening another request
        state.press(Key(.escape), .char("1"), .char("j"), Key(.enter))
        // Then nothing asks, the other request is open, and the tree marks the draft
        #expect(state.modals.isEmpty)
        #expect(state.editor.name == "Create user")
        #expect(!state.editor.isDirty)
        #expect(Snapshot.screen(state).contains { $0.contains("List users ●") })
        // When going back, the edit is there, still unsaved
        state.press(.char("1"), .char("k"), Key(.enter))
        #expect(state.editor.name == "List users")
        #expect(state.editor.url.text == "{{base}}/users?page=1&x")
        #expect(state.editor.isDirty)
        #expect(state.drafts.isEmpty)
        // And quitting with a draft kept names it and asks
        state.press(.char("1"), .char("j"), Key(.enter), Key(.escape), .char("q"))
        guard case .confirm(let confirm)? = state.modals.last else {
            Issue.record("expected a confirmation before quitting")
            return
        }
        #expect(confirm.message == "Quit and lose unsaved edits to 'List users'?")
    }

    @Test func aDraftFollowsItsRequestWhenAnEarlierOneIsDeleted() {
        // Given a draft of "Create user" (the second request) kept while another is open
        var state = Fixtures.editing()
        state.press(.char("1"), .char("j"), Key(.enter), .char("e"), Key(.end))
        state.type("?x=1")
        state.press(Key(.escape), .char("1"), .char("j"), Key(.enter))
        #expect(state.drafts.keys.map(\.index) == [1])
        // When the first request of the file is deleted, "Create user" moves to index 0
        var files = Fixtures.collection.files
        files[0].requests.removeFirst()
        let edited = Collection(root: "Collections", files: files, environments: Fixtures.collection.environments)
        _ = update(&state, .collectionEdited(edited, select: nil))
        // Then opening it there (api, users.http, Create user) brings the draft back
        state.press(.char("1"), .char("g"), .char("j"), .char("j"), Key(.enter))
        #expect(state.editor.name == "Create user")
        #expect(state.editor.url.text == "{{base}}/users?x=1")
        #expect(state.editor.origin == RequestRef(file: "api/users.http", index: 0))
        #expect(state.drafts.isEmpty)
    }

    @Test func aMouseClickFocusesAPaneAndSelectsARow() {
        var state = Fixtures.loaded()
        state.press(.char("3"))
        // The collection is the left column; row 1 inside its border is the first tree row.
        _ = update(&state, .input(.mouse(MouseEvent(kind: .press, position: Position(x: 3, y: 4)))))
        #expect(state.focus == .collection)
        #expect(state.tree.selectedRow(state.collection)?.label == "Create user")
    }

    @Test func aLongMethodKeepsASpaceBeforeTheName() {
        // Given OPTIONS and GRAPHQL requests, whose words fill the method column
        let collection = Collection(root: "c", files: [CollectionFile(
            path: "api.http", displayPath: ["api.http"],
            requests: [
                RequestDraft(name: "preflight", method: "OPTIONS", url: "http://h/"),
                RequestDraft(name: "counts", kind: .graphql, url: "http://h/graphql"),
                RequestDraft(name: "list", url: "http://h/list"),
            ])], environments: [:])
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "c", environment: nil)
        _ = update(&state, .collectionLoaded(collection))
        // Then each row reads the method, a space, then the name; short methods stay aligned
        let screen = Screen.render(state).0.lines().joined(separator: "\n")
        #expect(screen.contains("OPTIONS preflight"), "\(screen)")
        #expect(screen.contains("GRAPHQL counts"), "\(screen)")
        #expect(screen.contains("GET    list"), "\(screen)")
    }
}

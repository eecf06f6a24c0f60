import CourierTerminal
import Testing
@testable import CourierApp

/// A 20,000-request collection in the tree: its rows are built once per change of the collection, the
/// folds or the filter, and navigating, folding and filtering stay correct.
@Suite("Collection pane: 20,000 requests")
struct LargeCollectionTreeTests {
    static let count = 20_000

    /// `big.http` with `count` requests, then `folder/small.http` with three.
    static func collection(renaming renamed: Int? = nil) -> Collection {
        let big = (1...count).map { index in
            RequestDraft(name: index == renamed ? "renamed \(index)" : "request \(index)", method: "GET",
                         url: "{{base}}/items/\(index)")
        }
        let small = ["alpha", "beta", "gamma"].map { RequestDraft(name: $0, method: "POST", url: "{{base}}/\($0)") }
        return Collection(root: "big", files: [
            CollectionFile(path: "big.http", displayPath: ["big.http"], requests: big),
            CollectionFile(path: "folder/small.http", displayPath: ["folder", "small.http"], requests: small),
        ])
    }

    static func loaded() -> AppState {
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "big")
        _ = update(&state, .collectionLoaded(collection()))
        return state
    }

    static func screen(_ state: AppState) -> String { Screen.render(state).0.lines().joined(separator: "\n") }

    static func selected(_ state: AppState) -> String? { state.tree.selectedRow(state.collection)?.label }

    @Test("unchanged, the rows are built once and shared by every frame and key that asks for them")
    func rowsAreBuiltOnce() {
        // Given the loaded collection
        var state = Self.loaded()
        let first = state.tree.rows(state.collection)
        // When a frame is drawn and the selection moves
        _ = Screen.render(state)
        state.press(.char("j"))
        // Then the same rows come back, not a copy built again
        let again = state.tree.rows(state.collection)
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress })
        #expect(again.count == 1 + Self.count + 2 + 3)
    }

    @Test("j, G, PgUp, g and k move through 20,000 rows and the screen follows")
    func navigates() {
        // Given the first request selected
        var state = Self.loaded()
        #expect(Self.selected(state) == "request 1")
        // When G is pressed
        state.press(.char("G"))
        // Then the last row is selected and on screen
        #expect(Self.selected(state) == "gamma")
        #expect(Self.screen(state).contains("gamma"))
        // When PgUp and k move up past the small file
        state.press(Key(.pageUp))
        state.press(.char("k"))
        let page = state.layout.contentHeight(.collection)
        let label = "request \(Self.count + 4 - page)"
        #expect(Self.selected(state) == label)
        #expect(Self.screen(state).contains(label))
        // When g goes back to the top
        state.press(.char("g"))
        #expect(Self.selected(state) == "big.http")
        #expect(Self.screen(state).contains("request 1 "))
    }

    @Test("folding the big file hides its 20,000 rows; unfolding brings them back")
    func folds() {
        // Given the file's row selected
        var state = Self.loaded()
        state.press(.char("g"))
        // When it is folded
        state.press(Key(.enter))
        // Then only the groups and the small file's requests are left
        #expect(state.tree.rows(state.collection).map(\.label) == ["big.http", "folder", "small.http", "alpha", "beta", "gamma"])
        #expect(!Self.screen(state).contains("request 2"))
        // When it is unfolded
        state.press(Key(.enter))
        #expect(state.tree.rows(state.collection).count == 1 + Self.count + 2 + 3)
    }

    @Test("typing a filter narrows 20,000 requests to the best match; Esc brings them all back")
    func filters() {
        // Given the tree
        var state = Self.loaded()
        // When "/19999" is typed
        state.press(.char("/"))
        state.type("19999")
        // Then the exact request is selected and on screen
        #expect(Self.selected(state) == "request 19999")
        #expect(Self.screen(state).contains("request 19999"))
        // When a character is deleted, the filter widens and still selects a match
        state.press(Key(.backspace))
        let widened = state.tree.rows(state.collection)
        #expect(widened.count > 2)
        #expect(Self.selected(state)?.hasPrefix("request 1999") == true)
        // When a filter matches nothing
        state.type("zzz")
        #expect(Self.screen(state).contains("No request matches"))
        // When Esc clears it
        state.press(Key(.escape))
        #expect(state.tree.rows(state.collection).count == 1 + Self.count + 2 + 3)
    }

    @Test("a filter typed on ranks only what the shorter one matched, with the rows of a full build")
    func narrowedFilterEqualsAFullBuild() {
        // Given the tree, filtering
        var state = Self.loaded()
        state.press(.char("/"))
        // When a query is typed key by key, edited back, and typed on with a space and capitals
        for key: Key in [.char("1"), .char("9"), .char("9"), Key(.backspace), .char("8"), .char(" "), .char("G")] {
            state.press(key)
            // Then after every key the rows and the best match equal those built from the whole collection
            let query = state.tree.filter.text
            let full = CollectionTreeState.buildRows(state.collection, collapsed: [], query: query)
            #expect(state.tree.rows(state.collection) == full.rows, "query \(query)")
            #expect(state.tree.bestMatchRow(state.collection) == full.bestMatch, "query \(query)")
        }
        #expect(state.tree.filter.text == "198 G")
    }

    @Test("a changed collection is shown at once, though the rows of the old one were cached")
    func changedCollectionIsRebuilt() {
        // Given the tree drawn once
        var state = Self.loaded()
        #expect(Self.screen(state).contains("request 3"))
        // When the collection is reloaded with request 3 renamed
        _ = update(&state, .collectionLoaded(Self.collection(renaming: 3)))
        // Then the new name is on screen and the old one gone
        let screen = Self.screen(state)
        #expect(screen.contains("renamed 3"))
        #expect(!screen.contains("request 3 "))
    }
}

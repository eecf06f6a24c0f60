import CourierApp
import CourierBody
import CourierTerminal
import Foundation
import Testing

/// Every prompt edits as readline does, takes paste, starts empty, and keeps a history per kind of prompt.
@Suite("update: one line editor for every prompt")
struct PromptLineTests {
    /// The explorer with a JSON response shown in the Response pane, focused.
    static func answered(_ json: String = #"{"items": [1, 2], "name": "Ada"}"#) -> AppState {
        var state = Fixtures.loaded()
        let info = ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", "application/json")])
        _ = update(&state, .responsePaneReady(generation: state.generation,
                                              ResponsePaneState(info: info, body: BodyDocument(data: Data(json.utf8)))))
        state.press(.char("3"))
        return state
    }

    @Test func theResponseSearchPromptTakesReadlineKeys() {
        // Given the search prompt with "abc def" typed
        var state = Self.answered()
        state.press(.char("/"))
        state.type("abc def")
        // When moving left twice and typing X
        state.press(Key(.left), Key(.left))
        state.type("X")
        // Then X lands before the last two characters, and the terminal cursor is after it
        #expect(state.responsePane?.prompt?.text == "abc dXef")
        let (_, cursor) = Screen.render(state)
        let layout = state.layout.panes[.response]!
        #expect(cursor == Position(x: layout.x + 1 + 1 + 6, y: layout.maxY - 2))
        // And Ctrl-W deletes the word before the cursor, Ctrl-U the rest before it, Ctrl-E goes to the end
        state.press(.ctrl("w"))
        #expect(state.responsePane?.prompt?.text == "abc ef")
        state.press(.ctrl("u"))
        #expect(state.responsePane?.prompt?.text == "ef")
        state.press(.ctrl("a"))
        state.type("d")
        #expect(state.responsePane?.prompt?.text == "def")
    }

    @Test func theJSONPathPromptStartsEmptyAndTakesAPasteAsIs() {
        // Given a response, filtered once already
        var state = Self.answered()
        state.press(.char("f"))
        // Then the prompt is empty, and says what it takes
        #expect(state.responsePane?.prompt?.text == "")
        #expect(Snapshot.screen(state).joined().contains("JSONPath: $.users[?(@.age > 30)].name"))
        // When pasting a whole expression
        _ = update(&state, .input(.paste("$.items")))
        // Then it is the expression, not `$$.items`
        #expect(state.responsePane?.prompt?.text == "$.items")
    }

    @Test func eachKindOfPromptRemembersWhatItWasGiven() {
        // Given two searches and a filter submitted
        var state = Self.answered()
        for query in ["ada", "items"] {
            state.press(.char("/"))
            state.type(query)
            state.press(Key(.enter))
        }
        state.press(.char("f"))
        state.type("$.name")
        state.press(Key(.enter))
        // When a new search prompt opens, and ↑ is pressed twice
        state.press(.char("/"))
        state.type("na")
        state.press(Key(.up))
        #expect(state.responsePane?.prompt?.text == "items")
        state.press(Key(.up))
        #expect(state.responsePane?.prompt?.text == "ada")
        // Then ↓ walks back to what was being typed
        state.press(Key(.down), Key(.down))
        #expect(state.responsePane?.prompt?.text == "na")
        // And the filter prompt has its own history
        state.press(Key(.escape), .char("f"), Key(.up))
        #expect(state.responsePane?.prompt?.text == "$.name")
    }

    @Test func dialogPromptsEditAsReadlineAndRememberNames() {
        // Given a new request named through the dialog
        var state = Fixtures.loaded()
        state.press(.char("n"))
        state.type("Ping hosts")
        state.press(.ctrl("w"))
        state.type("host")
        #expect(state.modals.last.flatMap { if case .prompt(let p) = $0 { p.line.text } else { nil } } == "Ping host")
        _ = state.press(Key(.enter))
        // When the next new request's dialog opens, ↑ brings the name back
        state.press(.char("n"), Key(.up))
        #expect(state.modals.last.flatMap { if case .prompt(let p) = $0 { p.line.text } else { nil } } == "Ping host")
    }

    @Test func aSecondSlashInTheCollectionStartsANewFilter() {
        // Given a filter typed and accepted
        var state = Fixtures.loaded()
        state.press(.char("/"))
        state.type("delete")
        state.press(Key(.enter))
        #expect(state.editor.name == "Delete user")
        // When pressing / again and typing another name
        state.press(.char("1"), .char("/"))
        state.type("search")
        // Then the filter is the new text alone, and its match is shown
        #expect(state.tree.filter.text == "search")
        #expect(state.editor.name == "Search")
    }

    @Test func searchEnterGoesToTheFirstMatch() throws {
        // Given a response whose only "needle" is far below the first screen
        let records = (0..<200).map { #"{"n": \#($0)}"# } + [#"{"needle": true}"#]
        var state = Self.answered("[" + records.joined(separator: ",") + "]")
        // When searching for it, and the search job reports
        state.press(.char("/"))
        state.type("needle")
        let job = try #require(BodyJobTests.jobs(state.press(Key(.enter))).first)
        BodyJobTests.run(job, into: &state)
        // Then the cursor is on the match, shown on screen, without pressing n
        let hit = try #require(state.responsePane?.currentHit)
        #expect(state.responsePane?.cursor == hit.line)
        #expect(Snapshot.screen(state).contains { $0.contains(#""needle": true"#) })
    }
}

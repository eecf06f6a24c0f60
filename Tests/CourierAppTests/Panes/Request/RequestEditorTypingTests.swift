import CourierApp
import CourierHTTP
import CourierTerminal
import Testing

/// Typing in the request editor through `update`: word motion, undo and redo, Enter, paste and the
/// screen cursor, on CourierTerminal's LineEditor (URL) and TextAreaEditor (body).
@Suite("update: typing in the request editor")
struct RequestEditorTypingTests {
    /// "List users" open, its body tab selected and being edited (the body starts empty).
    static func editingBody() -> AppState {
        var state = Fixtures.editing()
        state.press(.char("j"), .char("l"), .char("l"), .char("e"))
        return state
    }

    @Test("Alt-b, Alt-f, Ctrl-Left and Ctrl-W move and delete by words in the URL, and the query follows")
    func wordMotionInTheURL() {
        // Given the URL being edited, cursor at its end
        var state = Fixtures.editing()
        state.press(.char("e"))
        // When moving two words left and typing
        state.press(Key(.character("b"), alt: true), Key(.character("b"), alt: true))
        state.type("x")
        // Then the text goes in before the query parameter's name
        #expect(state.editor.url.text == "{{base}}/users?xpage=1")
        // When moving one word right (past the name) and typing
        state.press(Key(.character("f"), alt: true))
        state.type("s")
        #expect(state.editor.url.text == "{{base}}/users?xpages=1")
        // When moving a word left with Ctrl-Left and deleting the word before it
        state.press(Key(.left, ctrl: true), .ctrl("w"))
        // Then the path segment goes and the query tab still mirrors the URL
        #expect(state.editor.url.text == "{{base}}/xpages=1")
        #expect(state.editor.query.text == "")
    }

    @Test("Home, End, Ctrl-A, Ctrl-E and Alt-d work in the URL")
    func homeEndAndDeleteWordRight() {
        // Given the URL being edited
        var state = Fixtures.editing()
        state.press(.char("e"))
        // When jumping home, deleting the word to the right, and appending at the end
        state.press(Key(.home), Key(.character("d"), alt: true), .ctrl("e"))
        state.type("&a")
        state.press(.ctrl("a"))
        state.type("x")
        state.press(Key(.end))
        state.type("b")
        // Then each jump landed where expected
        #expect(state.editor.url.text == "x}}/users?page=1&ab")
    }

    @Test("Ctrl-_ undoes a typed word, a line break and another word in steps; Ctrl-Y redoes them")
    func undoAndRedoInTheBody() {
        // Given the body being edited with two typed lines
        var state = Self.editingBody()
        state.type("one")
        state.press(Key(.enter))
        state.type("two")
        #expect(state.editor.body.text == "one\ntwo")
        // When undoing twice
        state.press(.ctrl("_"))
        #expect(state.editor.body.text == "one\n")
        state.press(.ctrl("_"))
        // Then the word and the line break are gone, one step each
        #expect(state.editor.body.text == "one")
        // When redoing both
        state.press(.ctrl("y"), .ctrl("y"))
        #expect(state.editor.body.text == "one\ntwo")
        // And u outside typing still undoes in the selected field
        state.press(Key(.escape), .char("u"))
        #expect(state.editor.body.text == "one\n")
        #expect(!state.editor.editing)
    }

    @Test("word motion in the body crosses line ends")
    func wordMotionCrossesLines() {
        // Given a two-line body, cursor at the end
        var state = Self.editingBody()
        state.type("one")
        state.press(Key(.enter))
        state.type("two")
        // When moving two words left (start of "two", then the end of the line above) and typing
        state.press(Key(.left, ctrl: true), Key(.left, alt: true))
        state.type("!")
        #expect(state.editor.body.text == "one!\ntwo")
        // When moving two words right (the next line's start, then past "two") and typing
        state.press(Key(.right, ctrl: true), Key(.right, alt: true))
        state.type("?")
        // Then both edits landed at the word ends
        #expect(state.editor.body.text == "one!\ntwo?")
    }

    @Test("Enter breaks the body's line; Up on its first line goes to the URL, where Enter sends")
    func enterAndUpInTheBody() {
        // Given a body of two lines
        var state = Self.editingBody()
        state.type("a")
        state.press(Key(.enter))
        state.type("b")
        // When pressing Up twice
        state.press(Key(.up))
        #expect(state.editor.field == .tab && state.editor.body.row == 0)
        state.press(Key(.up))
        // Then the URL field is selected, still typing
        #expect(state.editor.field == .url && state.editor.editing)
        // And Enter there sends instead of breaking the URL
        let effects = state.press(Key(.enter))
        #expect(effects.contains { if case .send = $0 { true } else { false } })
        #expect(state.editor.url.text == "{{base}}/users?page=1")
    }

    @Test("a paste keeps its lines in the body, joins them with spaces in the auth field, and undoes as one step")
    func pasteIntoTheBodyAndAuth() {
        // Given the body being edited
        var state = Self.editingBody()
        // When pasting three lines
        _ = update(&state, .input(.paste("{\n  \"a\": 1\n}")))
        // Then the body has them as lines, and one undo removes the whole paste
        #expect(state.editor.body.lines.count == 3)
        state.press(.ctrl("_"))
        #expect(state.editor.body.text == "")
        // When pasting two lines into the one-line auth field
        state.press(Key(.escape), .char("l"), .char("e"))
        _ = update(&state, .input(.paste("Bearer\nabc")))
        // Then they join with a space
        #expect(state.editor.auth.text == "Bearer abc")
    }

    @Test("wide characters move the screen cursor two columns each and move as one")
    func wideCharactersAndTheScreenCursor() throws {
        // Given the body being edited
        var state = Self.editingBody()
        let start = try #require(Screen.render(state).cursor)
        // When typing two wide characters
        state.type("名前")
        // Then the cursor is four columns on
        let typed = try #require(Screen.render(state).cursor)
        #expect(typed.x == start.x + 4 && typed.y == start.y)
        // When moving left once and deleting backward
        state.press(Key(.left))
        #expect(try #require(Screen.render(state).cursor).x == start.x + 2)
        state.press(Key(.backspace))
        // Then a whole character went
        #expect(state.editor.body.text == "前")
        #expect(try #require(Screen.render(state).cursor).x == start.x)
    }

    @Test("? help lists the editing keys from the table that drives them, undo on Ctrl-_ not Ctrl-Z, Ctrl-U deletes to the line start")
    func helpListsTheEditingKeys() {
        // Given the help screen's lines
        let lines = HelpCatalog.lines
        // Then the typing section names word motion, delete word right, undo and redo
        #expect(lines.contains { $0.contains("Ctrl-←/Alt-←/Alt-b") && $0.hasSuffix("word left") })
        #expect(lines.contains { $0.hasSuffix("delete word right") })
        #expect(lines.contains { $0.contains("Ctrl-_") && $0.hasSuffix("undo") })
        #expect(lines.contains { $0.contains("Ctrl-U") && $0.hasSuffix("delete to line start") })
        #expect(lines.contains { $0.contains("Ctrl-Y") && $0.hasSuffix("redo") })
    }
}

import CourierTerminal
import Testing

/// What apps with their own keymap use: `perform`, `setText`, a text area opened at its end, and word
/// motion across line ends.
@Suite("editors driven by actions, for apps with their own keymap")
struct EditorActionTests {
    @Test("a one-line editor performs every action but Up, Down and Enter, which it leaves to the app")
    func lineEditorLeavesLineActionsToTheApp() {
        // Given a one-line editor
        var editor = LineEditor("a b")
        // When performing the actions a one-line field has no meaning for
        let used = [EditorAction.up, .down, .newline].map { editor.perform($0) }
        // Then none is used and the text is unchanged
        #expect(used == [false, false, false])
        #expect(editor.text == "a b")
        // And the others apply
        let home = editor.perform(.home), deleted = editor.perform(.deleteWordForward)
        #expect(home && deleted)
        #expect(editor.text == " b")
    }

    @Test("setText is one undo step, and setting the same text is none")
    func setTextUndoesAndSkipsUnchangedText() {
        // Given both kinds of editor with a replaced text
        var line = LineEditor("old")
        var area = TextAreaEditor("old")
        line.setText("new")
        area.setText("new\nlines")
        // When setting the same text again, then undoing once
        line.setText("new")
        area.setText("new\nlines")
        #expect(area.row == 1 && area.column == 5)
        line.undo()
        area.undo()
        // Then the original text is back: the unchanged set left no step
        #expect(line.text == "old" && area.text == "old")
    }

    @Test("a text area can open with the cursor after its last character")
    func textAreaOpensAtTheEnd() {
        // Given a body opened to append to
        var area = TextAreaEditor("{\n}", cursorAtEnd: true)
        // When typing
        let used = area.perform(.insert("!"))
        #expect(used)
        // Then the character lands at the very end
        #expect(area.text == "{\n}!")
    }

    @Test("word motion in a text area goes to the neighbouring line at a line end or start")
    func wordMotionCrossesLineEnds() {
        // Given two lines, cursor at the start of the second
        var area = TextAreaEditor("one two\nthree")
        area.moveDown()
        // When moving a word left
        area.moveWordLeft()
        // Then the cursor is at the end of the first line
        #expect(area.row == 0 && area.column == 7)
        // When moving a word right twice
        area.moveWordRight()
        #expect(area.row == 1 && area.column == 0)
        area.moveWordRight()
        #expect(area.row == 1 && area.column == 5)
        // And Alt-d deletes the word after the cursor on its line
        area.moveHome()
        area.deleteWordForward()
        #expect(area.text == "one two\n")
    }
}

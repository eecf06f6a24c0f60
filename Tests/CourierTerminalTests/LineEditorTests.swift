import Testing
import CourierTerminal

@Suite struct LineEditorTests {
    @Test func typingInsertsAtTheCursorAndArrowsMoveByCharacter() {
        var editor = LineEditor("ac")
        editor.moveLeft()
        editor.handle(.char("b"))
        #expect(editor.text == "abc")
        #expect(editor.cursor == 2)
    }

    @Test func wordMovementStopsAtUrlSeparators() {
        var editor = LineEditor("http://host/users/42?q=x")
        editor.moveWordLeft()
        #expect(editor.cursor == 23)  // before "x"
        editor.moveWordLeft()
        #expect(editor.cursor == 21)  // before "q"
        editor.moveHome()
        editor.moveWordRight()
        #expect(editor.cursor == 4)   // after "http"
    }

    @Test func homeEndDeleteAndBackspace() {
        var editor = LineEditor("hello")
        editor.handle(Key(.home))
        editor.handle(Key(.delete))
        #expect(editor.text == "ello")
        editor.handle(.ctrl("e"))
        editor.handle(Key(.backspace))
        #expect(editor.text == "ell")
        editor.handle(.ctrl("a"))
        editor.handle(Key(.backspace))
        #expect(editor.text == "ell")
    }

    @Test func killCommandsDeleteWordsAndLineParts() {
        var editor = LineEditor("GET /users/42")
        editor.handle(.ctrl("w"))
        #expect(editor.text == "GET /users/")
        editor.setCursor(4)
        editor.handle(.ctrl("k"))
        #expect(editor.text == "GET ")
    }

    @Test func ctrlUDeletesToTheLineStartAsInReadline() {
        var editor = LineEditor("GET /users")
        editor.handle(Key(.left))
        editor.handle(.ctrl("u"))
        #expect(editor.text == "s")
        editor.handle(.ctrl("_"))
        #expect(editor.text == "GET /users")
    }

    @Test func undoRevertsARunOfTypingAsOneStepAndRedoReappliesIt() {
        // Given a field where the user types a word, then deletes a character
        var editor = LineEditor("x")
        for c in "abc" { editor.handle(.char(c)) }
        editor.handle(Key(.backspace))
        #expect(editor.text == "xab")
        // When undo (Ctrl-_, as in readline and the request editor) is pressed twice
        editor.handle(.ctrl("_"))
        #expect(editor.text == "xabc")
        editor.handle(.ctrl("_"))
        // Then the typing run is undone at once
        #expect(editor.text == "x")
        let redone = editor.redo()
        #expect(redone)
        #expect(editor.text == "xabc")
    }

    @Test func pasteIsOneStepAndFlattensLineBreaks() {
        var editor = LineEditor()
        editor.handle(.paste("a\nb\r\nc"))
        #expect(editor.text == "a b c")
        editor.undo()
        #expect(editor.text == "")
    }

    @Test func wideCharactersAreOneStepButTwoColumns() {
        var editor = LineEditor("日本")
        #expect(editor.cursorColumn == 4)
        editor.moveLeft()
        #expect(editor.cursor == 1)
        #expect(editor.cursorColumn == 2)
        editor.insert("😀")
        #expect(editor.text == "日😀本")
        #expect(editor.cursorColumn == 4)
    }

    @Test func keysTheEditorDoesNotUseAreLeftForThePane() {
        var editor = LineEditor("x")
        let used = [editor.handle(Key(.tab)), editor.handle(Key(.enter)), editor.handle(.ctrl("s"))]
        #expect(used == [false, false, false])
        #expect(editor.text == "x")
    }
}

@Suite struct TextAreaEditorTests {
    @Test func enterSplitsLinesAndBackspaceJoinsThem() {
        var editor = TextAreaEditor("{\"a\": 1}")
        editor.moveEnd()
        editor.moveLeft()
        editor.handle(Key(.enter))
        #expect(editor.text == "{\"a\": 1\n}")
        #expect(editor.row == 1 && editor.column == 0)
        editor.handle(Key(.backspace))
        #expect(editor.text == "{\"a\": 1}")
    }

    @Test func upAndDownKeepTheDisplayColumnAcrossShortLines() {
        var editor = TextAreaEditor("abcdef\nab\nabcdef")
        editor.moveEnd()                 // column 6 on line 0
        editor.moveDown()
        #expect(editor.row == 1 && editor.column == 2)
        editor.moveDown()
        #expect(editor.row == 2 && editor.column == 6)
    }

    @Test func multiLinePasteLandsAtTheCursorAsOneUndoStep() {
        var editor = TextAreaEditor("ab")
        editor.moveRight()
        editor.handle(.paste("1\r\n2\n3"))
        #expect(editor.text == "a1\n2\n3b")
        #expect(editor.row == 2 && editor.column == 1)
        editor.undo()
        #expect(editor.text == "ab")
    }

    @Test func textAreaKeepsTheCursorLineInView() {
        var editor = TextAreaEditor((1...10).map { "line \($0)" }.joined(separator: "\n"))
        editor.moveLines(8)
        var buffer = Buffer(size: Size(width: 10, height: 3))
        let cursor = TextArea(editor).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["line 7", "line 8", "line 9"])
        #expect(cursor == Position(x: 0, y: 2))
    }
}

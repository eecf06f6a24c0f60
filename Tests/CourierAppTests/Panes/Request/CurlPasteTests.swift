import CourierApp
import CourierTerminal
import Testing

/// A curl command pasted into the URL field, or imported from the palette, is the request it describes.
@Suite("update: a curl command becomes a request")
struct CurlPasteTests {
    static let command = """
        curl -X POST 'http://127.0.0.1:8088/users?notify=1' \\
          -H 'Content-Type: application/json' -H 'X-Trace: abc' \\
          --data-raw '{"name": "Ada"}'
        """

    @Test func pastingACurlCommandIntoTheURLFieldFillsTheOpenRequest() {
        // Given "List users" open, its URL field selected
        var state = Fixtures.editing()
        // When a curl command is pasted
        _ = update(&state, .input(.paste(Self.command)))
        // Then the request is the command's, not `GET curl -X POST …`
        #expect(state.editor.method == "POST")
        #expect(state.editor.url.text == "http://127.0.0.1:8088/users?notify=1")
        #expect(state.editor.query.text == "notify=1")
        #expect(state.editor.headers.text == "Content-Type: application/json\nX-Trace: abc")
        #expect(state.editor.body.text == #"{"name": "Ada"}"#)
        #expect(state.editor.name == "List users" && state.editor.isDirty)
        #expect(state.status?.text == "Pasted a curl command: POST with 2 headers and a body; Ctrl-S saves it as 'List users'")
        // And u in the URL field brings the old URL back
        state.press(.char("u"))
        #expect(state.editor.url.text == "{{base}}/users?page=1")
    }

    @Test func somethingElseThatIsNotCurlIsPastedAsText() {
        var state = Fixtures.editing()
        state.press(.char("e"), .ctrl("a"), .ctrl("k"))
        _ = update(&state, .input(.paste("curly.example.com/x")))
        #expect(state.editor.url.text == "curly.example.com/x")
        #expect(state.editor.method == "GET")
    }

    @Test func aCommandCourierCannotReadIsSaidAndChangesNothing() {
        var state = Fixtures.editing()
        _ = update(&state, .input(.paste("curl -X POST 'http://unterminated")))
        #expect(state.editor.url.text == "{{base}}/users?page=1")
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.hasPrefix("Not a curl command Courier reads:") == true)
    }

    @Test func importCurlFromThePaletteAddsANewRequest() {
        // Given the palette, asked for "import curl"
        var state = Fixtures.loaded()
        state.press(.char(":"))
        state.type("import curl")
        state.press(Key(.enter))
        guard case .prompt(let prompt)? = state.modals.last else {
            Issue.record("no prompt for the command: \(state.modals)")
            return
        }
        #expect(prompt.title == "curl command to import (paste it)")
        // When the command is pasted and accepted
        _ = update(&state, .input(.paste(Self.command)))
        let effects = state.press(Key(.enter))
        // Then a request named for its method and path goes into the selected request's file
        guard case .collectionEdit(.add(let file, let draft))? = effects.first else {
            Issue.record("expected an add, got \(effects)")
            return
        }
        #expect(file == "api/users.http")
        #expect(draft.name == "post-users" && draft.method == "POST")
        #expect(draft.url == "http://127.0.0.1:8088/users?notify=1")
        #expect(draft.headers["X-Trace"] == "abc")
    }
}

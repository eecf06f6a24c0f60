import CourierApp
import CourierTerminal
import Testing

/// `v` shows values: an unknown variable keeps the error colour, and the pane says the view is on.
@Suite("update: the resolved view")
struct ResolvedViewTests {
    /// The style of the first cell of `text` on screen.
    static func style(of text: String, in state: AppState) -> Style? {
        let (buffer, _) = Screen.render(state)
        let lines = buffer.lines()
        guard let row = lines.firstIndex(where: { $0.contains(text) }),
              let range = lines[row].range(of: text) else { return nil }
        let column = lines[row][..<range.lowerBound].count
        return buffer[column, row].style
    }

    @Test func anUnknownVariableStaysInTheErrorColourAndTheTitleSaysTheViewIsOn() {
        // Given a URL with a known and an unknown variable
        var state = Fixtures.editing()
        state.editor.url.setText("{{base}}/users/{{nope}}")
        #expect(!Snapshot.screen(state).joined().contains("resolved"))
        // When pressing v
        state.press(.char("v"))
        // Then the known one shows its value in the value colour, the unknown one as written in the error colour
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("GET http://127.0.0.1:8088/users/{{nope}}"), "\(screen)")
        #expect(Self.style(of: "http://127.0.0.1:8088", in: state)?.foreground == state.theme.jsonString.foreground)
        #expect(Self.style(of: "{{nope}}", in: state)?.foreground == state.theme.error.foreground)
        #expect(Self.style(of: "/users/", in: state)?.foreground != state.theme.jsonString.foreground)
        // And the title says the view is on and which key turns it off
        #expect(screen.contains("2 Request · List users ● · resolved (v)"), "\(screen)")
        state.press(.char("v"))
        #expect(!Snapshot.screen(state).joined().contains("resolved (v)"))
    }
}

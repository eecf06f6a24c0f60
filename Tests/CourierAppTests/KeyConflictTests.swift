import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// One key, one meaning: the keys every pane shares are not taken over by one pane.
@Suite("keys: one meaning everywhere")
struct KeyConflictTests {
    /// "List users" answered with a JSON body, the response pane focused.
    static func responseFocused() throws -> AppState {
        var state = Fixtures.editing()
        state.press(Key(.enter))
        let body = #"{"data":[{"id":1,"name":"Ada"}]}"#
        let response = HTTPResponse(status: 200, reason: "OK", headers: ["Content-Type": "application/json"],
                                    body: .data(Data(body.utf8)), url: URL(string: "http://x/users")!,
                                    timing: Timing(total: .milliseconds(8)))
        _ = update(&state, .responsePaneReady(generation: 1, try #require(ResponseFormatter.pane(response))))
        state.press(.char("3"))
        return state
    }

    @Test("z zooms every pane, the response pane included; o folds there")
    func zZoomsEveryPane() throws {
        var state = try Self.responseFocused()
        state.press(.char("z"))
        #expect(state.zoomed == .response)
        state.press(.char("z"))
        #expect(state.zoomed == nil)
        for pane in PaneID.allCases {
            state.press(.char(Character(String(pane.rawValue))), .char("z"))
            #expect(state.zoomed == pane, "z did not zoom \(pane)")
            state.press(.char("z"))
        }
        #expect(ResponsePaneState.keymap.contains { $0.command == .toggleFold && $0.keys == [.char("o")] })
    }

    @Test(": opens the palette in the response pane too; Ctrl-G goes to a line")
    func colonIsThePaletteEverywhere() throws {
        var state = try Self.responseFocused()
        state.press(.char(":"))
        guard case .palette? = state.modals.last else {
            Issue.record("':' did not open the palette: \(state.modals)")
            return
        }
        state.press(Key(.escape))
        state.press(.ctrl("g"))
        #expect(state.responsePane?.prompt?.kind == .goToLine)
    }

    @Test("Each input hints its own Enter: send in the URL, new line in the body, open in the filter")
    func eachInputShowsItsOwnHints() {
        var state = Fixtures.editing()
        state.press(.char("e"))
        #expect(HelpCatalog.hints(for: state).first.map { "\($0.keys) \($0.help)" } == "Enter send")
        state.press(Key(.escape), .char("j"), .char("l"), .char("l"), .char("e"))
        #expect(HelpCatalog.hints(for: state).first.map { "\($0.keys) \($0.help)" } == "Enter new line")
        state.press(Key(.escape), .char("1"), .char("/"))
        #expect(HelpCatalog.hints(for: state).first.map { "\($0.keys) \($0.help)" } == "Enter open")
        #expect(HelpCatalog.hints(for: state).contains { $0.keys == "Ctrl-U" })
        #expect(!HelpCatalog.hints(for: state).contains { $0.help.contains("(URL)") })
    }

    @Test("Space is spelled out in help")
    func spaceIsNamed() {
        #expect(Key.char(" ").description == "Space")
        #expect(HelpCatalog.lines.contains { $0.contains("Space") && $0.contains("page down") })
    }

    @Test("Only y confirms a dialog that loses work; Enter leaves it open")
    func onlyYConfirms() {
        var state = Fixtures.editing()
        state.press(.char("e"))
        state.type("x")
        state.press(Key(.escape), .char("q"))
        guard case .confirm? = state.modals.last else {
            Issue.record("expected the quit confirmation")
            return
        }
        state.press(Key(.enter))
        #expect(!state.shouldQuit)
        #expect(state.modals.count == 1)
        state.press(.char("y"))
        #expect(state.shouldQuit)
    }

    @Test("Ctrl-L asks for a full repaint, even over a dialog and while typing")
    func ctrlLRepaints() {
        var state = Fixtures.editing()
        state.press(.char("e"), .ctrl("l"))
        #expect(state.shouldRepaint)
        #expect(state.editor.editing)
        state.shouldRepaint = false
        state.press(Key(.escape), .char("?"), .ctrl("l"))
        #expect(state.shouldRepaint)
        #expect(state.modals == [.help(scroll: 0)])
    }
}

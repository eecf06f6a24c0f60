import CourierApp
import CourierBody
import CourierTerminal
import Foundation
import Testing

@Suite("the explorer's smaller fixes: filter ranking, option validation, clipboard limit")
struct ExplorerSmallFixesTests {
    static let collection = Collection(root: "c", files: [CollectionFile(
        path: "demo.http", displayPath: ["demo.http"],
        requests: [
            RequestDraft(name: "listUsers", url: "{{base}}/users?page=1&mode=emails"),
            RequestDraft(name: "createUser", method: "POST", url: "{{base}}/users"),
            RequestDraft(name: "me", url: "{{base}}/me"),
        ])], environments: ["demo": ["base": "http://127.0.0.1:1"]])

    static func loaded() -> AppState {
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "c", environment: "demo")
        _ = update(&state, .collectionLoaded(collection))
        return state
    }

    @Test func theFilterPutsAnExactURLMatchFirstAndEnterOpensIt() {
        // Given the collection focused
        var state = Self.loaded()
        // When filtering for "/me" (listUsers matches too, as a subsequence) and pressing Enter
        state.press(.char("/"))
        state.type("/me")
        let rows = state.tree.rows(state.collection).map(\.label)
        state.press(Key(.enter))
        // Then `me` is listed before `listUsers`, and it is the one opened
        #expect(rows.firstIndex(of: "me") ?? 99 < rows.firstIndex(of: "listUsers") ?? -1, "\(rows)")
        #expect(state.editor.name == "me")
    }

    @Test func attemptsThatAreNotANumberAreRefusedWithAClearMessage() {
        // Given a request open with "abc" typed into the Options tab's Attempts
        var state = Self.loaded()
        state.press(.char("/"))
        state.type("me")
        state.press(Key(.enter))
        state.editor.retries = LineEditor("abc")
        // When sending and saving
        let sent = state.press(Key(.enter))
        let sendStatus = state.status
        let saved = state.press(.ctrl("s"))
        // Then neither happens, and the message says what the field takes
        #expect(sent.isEmpty)
        #expect(saved.isEmpty)
        #expect(sendStatus?.text == "Attempts takes a whole number from 1 to 10, not 'abc'")
        #expect(state.status?.kind == .error)
        state.editor.retries = LineEditor("2")
        #expect(!state.press(Key(.enter)).isEmpty)
    }

    @Test func copyingABodyPastTheClipboardLimitSaysSoAndOffersSaving() {
        // Given a response whose body is larger than OSC 52 carries
        var state = Self.loaded()
        state.press(.char("/"))
        state.type("me")
        state.press(Key(.enter), Key(.enter))
        let body = Data(String(repeating: "x", count: Clipboard.maxBytes + 1).utf8)
        _ = update(&state, .responsePaneReady(generation: state.generation, ResponsePaneState(
            info: ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", "text/plain")]),
            body: BodyDocument(data: body))))
        // When Y is pressed in the Response pane
        let effects = state.press(.char("3"), .char("Y"))
        // Then nothing is sent to the clipboard, and the status line says why and how to save it
        #expect(effects.isEmpty)
        #expect(state.status?.text.contains("s saves it to a file") == true, "\(String(describing: state.status))")
        #expect(state.status?.kind == .error)
    }
}

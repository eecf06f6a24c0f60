import CourierApp
import CourierHTTP
import CourierTerminal
import Testing

@Suite("view: a request's body as a new user first sees it")
struct RequestBodyViewTests {
    static let body = (["{"] + (1...12).map { "  \"field\($0)\": \($0)," } + ["  \"last\": true", "}"])
        .joined(separator: "\n")

    static func opened() -> AppState {
        let file = CollectionFile(path: "orders.http", displayPath: ["orders.http"], requests: [
            RequestDraft(name: "Create order", method: "POST", url: "{{base}}/orders",
                         headers: ["Content-Type": "application/json"], body: body),
        ])
        var state = AppState(size: Size(width: 80, height: 24), collectionPath: "Collections", environment: "dev")
        _ = update(&state, .collectionLoaded(Collection(root: "Collections", files: [file],
                                                        environments: ["dev": ["base": "http://127.0.0.1:1"]])))
        return state
    }

    @Test func aLongBodyShowsFromItsFirstLineAndSaysWhatIsBelow() {
        let screen = Snapshot.screen(Self.opened()).joined(separator: "\n")
        // The opening brace is on screen (it was scrolled off: the cursor waits at the end for typing) …
        #expect(screen.contains("│{"))
        #expect(screen.contains("\"field1\": 1"))
        // … and the lines that do not fit are counted, with the key that reaches them.
        #expect(screen.contains("more lines: e to edit"))
        #expect(!screen.contains("\"last\": true"))
    }

    @Test func editingScrollsToTheCursorAtTheEnd() {
        var state = Self.opened()
        state.press(.char("2"), .char("j"), .char("e"))
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("\"last\": true"))
        #expect(!screen.contains("more lines: e to edit"))
    }
}

@Suite("view: the status bar names the key that sends")
struct SendHintTests {
    @Test func atEightyColumnsEveryPaneThatSendsSaysEnterFirst() {
        var state = Fixtures.loaded(size: Size(width: 80, height: 24))
        for pane in ["1", "2", "3"] {
            state.press(.char(Character(pane)))
            // The collection's "send (on a folder: fold)" is too long for the bar: it says "send", first.
            #expect(Snapshot.screen(state).last?.hasPrefix(" Enter send  ") == true, "pane \(pane)")
        }
    }

    @Test func aPaneThatTakesEnterForItselfDoesNotHintTheGlobalSend() {
        var state = Fixtures.loaded(size: Size(width: 200, height: 60))
        state.press(.char("5"))
        let bar = Snapshot.screen(state).last ?? ""
        #expect(bar.contains("i/Enter write a message"))
        #expect(!bar.contains("Enter send"))
    }
}

@Suite("view: unsaved edits say how to save them")
struct SaveHintTests {
    @Test func anEditedRequestHintsTheSaveKeyAfterSend() {
        var state = Fixtures.editing(size: Size(width: 100, height: 24))
        #expect(Snapshot.screen(state).last?.contains("save") == false)
        state.press(.char("e"))
        state.type("/x")
        state.press(Key(.escape))
        let bar = Snapshot.screen(state).last ?? ""
        #expect(bar.hasPrefix(" Enter send  Ctrl-S save  "), "\(bar)")
    }

    @Test func whileTypingAnEditedFieldTheSaveHintIsSaidOnce() {
        var state = Fixtures.editing(size: Size(width: 120, height: 24))
        state.press(.char("e"))
        state.type("/x")
        let bar = Snapshot.screen(state).last ?? ""
        #expect(bar.hasPrefix(" Enter send  Ctrl-S save  Esc stop editing  "), "\(bar)")
        #expect(bar.components(separatedBy: "save").count == 2, "\(bar)")
    }

    @Test func atEightyColumnsTheSaveHintKeepsItsPlaceAndTheThemeNameGivesWay() {
        var state = Fixtures.editing(size: Size(width: 80, height: 24))
        #expect(Snapshot.screen(state).last?.hasSuffix("· dark") == true)
        state.press(.char("e"))
        state.type("/x")
        state.press(Key(.escape))
        let bar = Snapshot.screen(state).last ?? ""
        #expect(bar.hasPrefix(" Enter send  Ctrl-S save  ? help  q quit"), "\(bar)")
        #expect(bar.contains("env: dev") && !bar.contains("· dark"), "\(bar)")
    }
}

@Suite("view: unnamed requests in the collection tree")
struct UnnamedRequestLabelTests {
    @Test func aLiteralURLReadsAsItsPathAndAVariableOneAsWritten() {
        let file = CollectionFile(path: "demo.http", displayPath: ["demo.http"], requests: [
            RequestDraft(name: "", method: "GET", url: "https://httpbin.org/anything?query=camry&page=4"),
            RequestDraft(name: "", method: "POST", url: "https://httpbin.org/post"),
            RequestDraft(name: "", method: "GET", url: "{{base}}/users"),
        ])
        var state = AppState(size: Size(width: 80, height: 24), collectionPath: "Collections")
        _ = update(&state, .collectionLoaded(Collection(root: "Collections", files: [file], environments: [:])))
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("GET    /anything?"), "\(screen)")
        #expect(screen.contains("POST   /post"), "\(screen)")
        #expect(screen.contains("GET    {{base}}/use"), "\(screen)")
    }
}

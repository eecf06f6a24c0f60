import CourierApp
import CourierTerminal
import Foundation
import Testing

/// Keys rebound in config.json: read with file:line errors, applied to the tables that drive dispatch,
/// help and the palette.
@Suite("keys: rebinding in config.json")
struct KeyRebindingTests {
    /// The key settings of a config.json text.
    static func keySettings(_ text: String, file: String = "/home/ada/.config/courier/config.json")
        throws -> KeySettings {
        try UserSettings.parse(Data(text.utf8), file: file).keys
    }

    /// The tables a config.json text gives, or the error it reports.
    static func tables(_ text: String) throws -> (tables: KeyTables, notices: [String]) {
        try KeyTables.defaults.rebound(by: keySettings(text))
    }

    /// The error a config.json text reports when its keys are applied.
    static func error(_ text: String) throws -> String {
        do {
            _ = try tables(text)
        } catch {
            return "\(error)"
        }
        Issue.record("the keys were accepted")
        return ""
    }

    // MARK: Spelling

    @Test("Keys are read as help spells them, and the longer names people write")
    func keysAreReadAsHelpSpellsThem() throws {
        #expect(try Key(spelling: "j") == .char("j"))
        #expect(try Key(spelling: "G") == .char("G"))
        #expect(try Key(spelling: "Ctrl-S") == .ctrl("s"))
        #expect(try Key(spelling: "ctrl-s") == .ctrl("s"))
        #expect(try Key(spelling: "C-s") == .ctrl("s"))
        #expect(try Key(spelling: "Ctrl-_") == .ctrl("_"))
        #expect(try Key(spelling: "Alt-x") == Key(.character("x"), alt: true))
        #expect(try Key(spelling: "Shift-Tab") == Key(.tab, shift: true))
        #expect(try Key(spelling: "Shift-a") == .char("A"))
        #expect(try Key(spelling: "F5") == Key(.function(5)))
        #expect(try Key(spelling: "Enter") == Key(.enter))
        #expect(try Key(spelling: "Space") == .char(" "))
        #expect(try Key(spelling: "PgDn") == Key(.pageDown))
        #expect(try Key(spelling: "PageDown") == Key(.pageDown))
        #expect(try Key(spelling: "↑") == Key(.up))
        #expect(try Key(spelling: "Up") == Key(.up))
        #expect(try Key(spelling: "Alt-↑") == Key(.up, alt: true))
        #expect(try Key(spelling: "-") == .char("-"))
        #expect(try Key(spelling: "Alt--") == Key(.character("-"), alt: true))
        // What help prints reads back as the same key.
        for binding in Keymaps.global + Keymaps.editing.map({ KeyBinding($0.keys, GlobalCommand.help, "") }) {
            for key in binding.keys { #expect(try Key(spelling: key.description) == key, "\(key)") }
        }
    }

    @Test("A key the terminal cannot send, or no key at all, is refused with the reason")
    func unsendableKeysAreRefused() {
        #expect(throws: Key.SpellingError.unknown("Hyper-x")) { try Key(spelling: "Hyper-x") }
        #expect(throws: Key.SpellingError.unknown("PageSideways")) { try Key(spelling: "PageSideways") }
        #expect(throws: Key.SpellingError.self) { try Key(spelling: "Ctrl-1") }
        #expect(throws: Key.SpellingError.self) { try Key(spelling: "Ctrl-Shift-x") }
        #expect(throws: Key.SpellingError.self) { try Key(spelling: "Shift-/") }
    }

    // MARK: Reading config.json

    @Test("A rebound key replaces the default; a list gives several; null and \"none\" unbind")
    func reboundKeysReplaceTheDefaults() throws {
        let (tables, notices) = try Self.tables("""
            {
              "theme": "light",
              "keys": {
                "global": { "zoom": "Ctrl-O", "palette": [":", "F1"], "suspend": null },
                "collection": { "newRequest": "none" },
                "response": { "copyCurl": "K", "toggleFold": "Space" }
              }
            }
            """)
        #expect(notices.isEmpty == false)  // Space was the viewer's page down
        #expect(tables.global.first { $0.command == .zoom }?.keys == [.ctrl("o")])
        #expect(tables.global.first { $0.command == .palette }?.keys == [.char(":"), Key(.function(1))])
        #expect(tables.global.first { $0.command == .suspend }?.keys == [])
        #expect(tables.collection.first { $0.command == .newRequest }?.keys == [])
        #expect(tables.response.first { $0.command == .copyCurl }?.keys == [.char("K")])
        #expect(tables.responseViewer.first { $0.command == .toggleFold }?.keys == [.char(" ")])
        // Everything not named keeps its keys.
        #expect(tables.global.first { $0.command == .save }?.keys == [.ctrl("s")])
        #expect(tables.collection.first { $0.command == .duplicate }?.keys == [.char("d")])
    }

    @Test("The README's example applies without an error or a notice")
    func theReadmeExampleApplies() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "**Rebinding keys.**"))
        let json = try #require(readme[start.upperBound...].components(separatedBy: "```").dropFirst().first)
        let (tables, notices) = try Self.tables(String(json.dropFirst("json".count)))
        #expect(notices.isEmpty, "\(notices)")
        #expect(tables.global.command(for: .ctrl("o")) == .zoom)
        #expect(tables.responseViewer.command(for: .char(" ")) == .toggleFold)
    }

    @Test("An unknown scope, command or key names the file and line; the rest of the file still counts")
    func unknownNamesAreReportedOnTheirLine() throws {
        let file = "/home/ada/.config/courier/config.json"
        let scope = try Self.error("{\n  \"keys\": {\n    \"editor\": { \"save\": \"Ctrl-W\" }\n  }\n}\n")
        #expect(scope.hasPrefix("\(file):3: unknown key scope 'editor' (known: global, collection,"), "\(scope)")
        let command = try Self.error("{\n  \"keys\": {\n    \"global\": {\n      \"zoom\": \"Z\",\n      \"sav\": \"Ctrl-W\"\n    }\n  }\n}\n")
        #expect(command.hasPrefix("\(file):5: unknown command 'sav' in 'global' (known: focusNext,"), "\(command)")
        #expect(command.contains("focusCollection"))
        let key = try Self.error("{\n  \"keys\": {\n    \"log\": {\n      \"clear\": \"Ctrl+X\"\n    }\n  }\n}\n")
        #expect(key.hasPrefix("\(file):4: 'log' 'clear': unknown key 'Ctrl+X' (write keys as help shows them"), "\(key)")
        let shape = try Self.error("{\n  \"keys\": {\n    \"log\": {\n      \"clear\": 5\n    }\n  }\n}\n")
        #expect(shape.hasPrefix("\(file):4: 'log' 'clear' must be a key like \"Ctrl-W\""), "\(shape)")
        // A bad "keys" object does not lose the theme and environment.
        let settings = try UserSettings.parse(Data(#"{"theme": "light", "keys": []}"#.utf8), file: "config.json")
        #expect(settings.theme == "light")
        #expect(settings.keys.problem?.description.hasPrefix("config.json:1: 'keys' must be an object") == true)
    }

    @Test("A key given to two commands of one scope is an error naming the key and both commands")
    func aKeyTwiceInOneScopeIsAnError() throws {
        let text = "{\n  \"keys\": {\n    \"collection\": {\n      \"delete\": \"X\",\n      \"rename\": [\"R\", \"X\"]\n    }\n  }\n}\n"
        let error = try Self.error(text)
        #expect(error == "/home/ada/.config/courier/config.json:5: X is bound to both 'delete' and 'rename' in 'collection'")
        // The same key in two scopes is no conflict: the pane's key wins in the pane, and the notice says so.
        let (tables, notices) = try Self.tables(#"{"keys": {"global": {"quit": "X"}, "collection": {"delete": "X"}}}"#)
        #expect(notices == ["X in collection runs delete there, not quit", "X in response runs copyCode there, not quit"])
        #expect(tables.global.command(for: .char("X")) == .quit)
        #expect(tables.collection.command(for: .char("X")) == .delete)
        let (_, shadowed) = try Self.tables(#"{"keys": {"global": {"quit": "j"}}}"#)
        #expect(shadowed.count == KeyScope.allCases.count - 1)  // every pane moves down with j
        #expect(shadowed.first == "j in collection runs down there, not quit")
    }

    @Test("A key taken from a default binding moves to the user's command, and the notice says which lost it")
    func aDefaultThatCollidesLosesTheKey() throws {
        let (tables, notices) = try Self.tables(#"{"keys": {"collection": {"delete": "d"}}}"#)
        #expect(tables.collection.command(for: .char("d")) == .delete)
        #expect(tables.collection.first { $0.command == .duplicate }?.keys == [])
        #expect(tables.collection.command(for: .char("x")) == nil)
        #expect(notices == ["d in collection now runs delete, not duplicate"])
        // Across the response pane's two tables too.
        let (response, responseNotices) = try Self.tables(#"{"keys": {"response": {"copyBody": "j"}}}"#)
        #expect(response.response.command(for: .char("j")) == .copyBody)
        #expect(response.responseViewer.first { $0.command == .lineDown }?.keys == [Key(.down)])
        #expect(responseNotices == ["j in response now runs copyBody, not lineDown"])
    }

    @Test("Every scope's command names are unique identifiers")
    func commandNamesAreUniqueIdentifiers() {
        for scope in KeyScope.allCases {
            let names = KeyTables.defaults.commandNames(in: scope)
            #expect(Set(names).count == names.count, "\(scope) repeats a name")
            for name in names {
                #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(scope): \(name)")
            }
        }
        #expect(KeyTables.defaults.commandNames(in: .global).contains("focusWebSocket"))
    }

    // MARK: The explorer

    @Test("A rebound key runs its command and the old key no longer does; help and the palette show it")
    func theExplorerUsesTheReboundKeys() throws {
        // Given zoom moved from z to Ctrl-O
        var state = Fixtures.loaded()
        let error = state.useKeys(try Self.keySettings(#"{"keys": {"global": {"zoom": "Ctrl-O"}}}"#))
        #expect(error == nil)
        // When pressing the old key, then the new one
        state.press(.char("z"))
        #expect(state.zoomed == nil)
        state.press(.ctrl("o"))
        // Then only the new key zoomed, and the collection fills the screen
        #expect(state.zoomed == .collection)
        let zoomed = Snapshot.screen(state)
        #expect(!zoomed.joined().contains("Response"), "\(zoomed.joined(separator: "\n"))")
        // And help lists Ctrl-O for zoom, with the name config.json uses, and no z
        state.press(.ctrl("o"), .char("?"))
        let help = Snapshot.screen(state)
        let zoomLine = try #require(help.first { $0.contains("zoom pane") }, "\(help.joined(separator: "\n"))")
        #expect(zoomLine.contains("Ctrl-O"))
        #expect(zoomLine.contains("zoom"))
        #expect(!zoomLine.contains(" z "))
        #expect(help.contains { $0.contains("Everywhere [global]") })
        // And the palette offers it under the new key
        let entry = HelpCatalog.paletteItems(state).first { $0.command == .global(.zoom) }
        #expect(entry?.keys == "Ctrl-O")
    }

    @Test("An unbound command disappears from the keys but stays in the palette")
    func anUnboundCommandStaysInThePalette() throws {
        var state = Fixtures.loaded()
        state.useKeys(try Self.keySettings(#"{"keys": {"global": {"zoom": null}}}"#))
        state.press(.char("z"))
        #expect(state.zoomed == nil)
        #expect(HelpCatalog.lines(state.keys).contains { $0.contains("(none)") && $0.contains("zoom pane") })
        state.press(.char(":"))
        state.type("zoom pane")
        state.press(Key(.enter))
        #expect(state.zoomed == .collection)
    }

    @Test("Printable keys rebound to commands still type into fields")
    func typingStaysTyping() throws {
        // Given save on w and the palette on x
        var state = Fixtures.editing()
        state.useKeys(try Self.keySettings(#"{"keys": {"global": {"save": ["w", "Ctrl-S"], "palette": "x"}}}"#))
        // When typing into the URL
        state.press(.char("e"))
        let effects = state.type("xw")
        // Then the characters went into the field and nothing ran
        #expect(state.editor.url.text.hasSuffix("xw"))
        #expect(state.modals.isEmpty)
        #expect(effects.isEmpty)
        // And the hint offers the key that still saves while typing
        #expect(HelpCatalog.hints(for: state).contains { $0.keys == "Ctrl-S" && $0.help == "save" })
        #expect(!HelpCatalog.hints(for: state).contains { $0.keys.contains("w") })
    }

    @Test("A repaint key that types still types in a field, and repaints outside one")
    func aPrintableRepaintKeyTypes() throws {
        var state = Fixtures.editing()
        state.useKeys(try Self.keySettings(#"{"keys": {"global": {"repaint": "%"}}}"#))
        state.press(.char("e"))
        state.type("%")
        #expect(state.editor.url.text.hasSuffix("%"))
        #expect(!state.shouldRepaint)
        state.press(Key(.escape), .char("%"))
        #expect(state.shouldRepaint)
    }

    @Test("Help titles and the explorer's hints name the user's keys")
    func hintsNameTheUsersKeys() throws {
        var state = Fixtures.loaded()
        state.useKeys(try Self.keySettings(
            #"{"keys": {"global": {"history": "F9", "send": "Ctrl-X", "focusResponse": "F3", "historyAll": null}}}"#))
        #expect(HelpCatalog.lines(state.keys).contains("History (F9) [history]"))
        #expect(HelpCatalog.lines(state.keys).contains("Response (F3) [response]"))
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("No response yet: Ctrl-X sends the request."), "\(screen)")
    }

    @Test("The response viewer's 'No search' names the user's search key")
    func noSearchNamesTheSearchKey() throws {
        var state = try KeyConflictTests.responseFocused()
        state.useKeys(try Self.keySettings(#"{"keys": {"response": {"beginSearch": "F7"}}}"#))
        state.press(.char("n"))
        #expect(state.responsePane?.message == "No search: press F7 to search")
    }

    @Test("The WebSocket pane's 'not connected' names the user's connect key")
    func notConnectedNamesTheConnectKey() throws {
        var state = Fixtures.loaded()
        state.useKeys(try Self.keySettings(#"{"keys": {"webSocket": {"connect": "F8", "compose": "a"}}}"#))
        state.press(.char("5"), .char("a"))
        state.type("hi")
        // The message is kept in the pane: zoomed, it fits on one line
        state.press(Key(.enter), Key(.escape), .char("z"))
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("not connected: press F8 to connect"), "\(screen)")
    }

    @Test("Keys taken from a default are listed in the status bar at start")
    func takenKeysAreListedInTheStatusBar() throws {
        var state = Fixtures.loaded()
        state.useKeys(try Self.keySettings(#"{"keys": {"collection": {"delete": "d"}}}"#))
        #expect(state.status?.text == "Keys from config.json: d in collection now runs delete, not duplicate")
        #expect(state.status?.kind == .info)
    }

    @Test("A bad keys object starts the explorer with the default keys and says why in the status bar")
    func aBadFileKeepsTheDefaults() throws {
        var state = Fixtures.loaded()
        let error = state.useKeys(try Self.keySettings(#"{"keys": {"global": {"zoom": "Ctrl-O", "quit": "Ctrl-O"}}}"#,
                                                        file: "config.json"))
        #expect(error != nil)
        #expect(state.keys == .defaults)
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.hasPrefix("Default keys in use: config.json:1: Ctrl-O is bound to both") == true)
        state.press(.char("z"))
        #expect(state.zoomed == .collection)
    }
}

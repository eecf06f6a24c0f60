@testable import CourierApp
import CourierTerminal
import Testing

@Suite("keymaps, help and the command palette come from one table")
struct PaletteAndHelpTests {
    @Test func everyBindingOfEveryTableAppearsInHelp() {
        let help = HelpCatalog.lines.joined(separator: "\n")
        func check<C>(_ table: [KeyBinding<C>]) {
            for binding in table {
                #expect(help.contains(binding.keyLabel + " "), "help lacks keys \(binding.keyLabel)")
                #expect(help.contains(binding.help), "help lacks '\(binding.help)'")
            }
        }
        check(Keymaps.global)
        check(Keymaps.collection)
        check(Keymaps.request)
        check(Keymaps.editing)
        check(Keymaps.response)
        check(ResponsePaneState.keymap)
        check(LogPaneState.keymap)
        check(WebSocketPaneState.keymap)
        check(WebSocketPaneState.composeKeymap)
    }

    @Test func helpAt80ColumnsFitsItsDialogAndStillNamesEveryCommand() {
        // Given the help dialog on an 80×24 screen
        let lines = HelpCatalog.lines(.defaults, columns: 76)
        // Then no line runs past the dialog's inside, and the global section still names its commands for config.json
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 76 }, "\(lines.filter { DisplayWidth.of($0) > 76 })")
        #expect(lines.contains { $0.contains("Tab") && $0.hasSuffix("focusNext") }, "\(lines)")
        #expect(lines.contains { $0.contains("discard this request") && $0.contains("…") && $0.hasSuffix("discardDraft") })
        // And a wide screen shows every description whole
        let wide = HelpCatalog.lines(.defaults, columns: 110)
        #expect(wide.contains { $0.contains("discard this request's unsaved edits (u in a field undoes)") })
    }

    @Test func noTableBindsTheSameKeyTwice() {
        func check<C>(_ table: [KeyBinding<C>], _ name: String) {
            let keys = table.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(name) binds a key twice")
        }
        check(Keymaps.global, "global")
        check(Keymaps.collection, "collection")
        check(Keymaps.request, "request")
        check(Keymaps.editing, "editing")
        check(Keymaps.response, "response")
        let responseKeys = ResponsePaneState.keymap.flatMap(\.keys) + Keymaps.response.flatMap(\.keys)
        #expect(Set(responseKeys).count == responseKeys.count, "the response pane's two tables share a key")
        check(LogPaneState.keymap, "log")
        check(WebSocketPaneState.keymap, "webSocket")
    }

    @Test func thePaletteListsEveryCommandOfEveryPaneAndEveryTheme() {
        let state = Fixtures.loaded()
        let commands = Set(HelpCatalog.paletteItems(state).compactMap(\.command))
        for binding in Keymaps.global { #expect(commands.contains(.global(binding.command))) }
        for binding in Keymaps.collection { #expect(commands.contains(.collection(binding.command))) }
        for binding in Keymaps.request { #expect(commands.contains(.request(binding.command))) }
        for binding in Keymaps.response { #expect(commands.contains(.response(binding.command))) }
        for binding in ResponsePaneState.keymap { #expect(commands.contains(.responsePane(binding.command))) }
        for binding in LogPaneState.keymap { #expect(commands.contains(.log(binding.command))) }
        for name in state.themeNames { #expect(commands.contains(.theme(name))) }
        #expect(commands.contains(.environment("dev")))
    }

    @Test func runningAPaletteEntryFocusesItsPaneAndRunsIt() {
        // Given the palette open from the collection
        var state = Fixtures.editing()
        state.press(.char("1"), .ctrl("p"))
        // When choosing "zoom"
        state.type("zoom pane")
        state.press(Key(.enter))
        // Then the command ran
        #expect(state.zoomed == .collection)
        #expect(state.modals.isEmpty)
    }

    @Test func choosingAnEnvironmentFromThePalette() {
        var state = Fixtures.loaded()
        state.press(.char("E"))
        state.type(" none")
        state.press(Key(.enter))
        #expect(state.environment == nil)
    }

    @Test func themeEntriesAskForTheThemeToBeLoaded() {
        var state = Fixtures.loaded()
        state.press(.char("T"))
        state.type("mono")
        #expect(state.press(Key(.enter)) == [.loadTheme(name: "monochrome")])
    }

    @Test func questionMarkOpensHelpAndEscapeClosesIt() {
        var state = Fixtures.loaded()
        state.press(.char("?"))
        #expect(state.modals == [.help(scroll: 0)])
        state.press(.char("j"))
        #expect(state.modals == [.help(scroll: 1)])
        state.press(Key(.escape))
        #expect(state.modals.isEmpty)
    }

    @Test func helpStartsWithTheFocusedPanesKeysAndStopsScrollingAtItsLastLine() {
        // Given the Response pane focused at 100×30
        var state = Fixtures.loaded(size: Size(width: 100, height: 30))
        state.press(.char("3"), .char("?"))
        // Then help opens on the Response pane's keys, the global ones after them
        let screen = Snapshot.screen(state)
        #expect(screen[2].contains("Response (3) [response]"), "\(screen.joined(separator: "\n"))")
        let lines = state.helpLines
        #expect(lines.firstIndex(of: "Everywhere [global]")! > lines.firstIndex(of: "Response (3) [response]")!)
        // When scrolling far past the end
        for _ in 0..<40 { state.press(Key(.pageDown)) }
        // Then the last line of help is at the bottom of the dialog, not followed by blank rows
        let bottom = Snapshot.screen(state)
        let last = lines.last { !$0.isEmpty }!
        #expect(bottom[26].contains(last.trimmingCharacters(in: .whitespaces)), "\(bottom.joined(separator: "\n"))")
        #expect(state.modals == [.help(scroll: lines.count - 26)])
    }

    @Test func aConfirmationNeverBreaksAWordOnANarrowScreen() {
        // Given unsaved edits to requests with long names, at the smallest size
        var state = Fixtures.loaded(size: Size(width: 60, height: 15))
        state.drafts = [RequestRef(file: "api/users.http", index: 1): Fixtures.editing().editor,
                        RequestRef(file: "api/users.http", index: 2): Fixtures.editing().editor]
        state.drafts[RequestRef(file: "api/users.http", index: 1)]?.name = "searchEverythingEverywhere"
        state.drafts[RequestRef(file: "api/users.http", index: 2)]?.name = "replaceTheWholeUserRecord"
        // When quitting
        state.press(.char("q"))
        // Then every word of the question is whole on one line
        let screen = Snapshot.screen(state).joined(separator: "\n")
        for word in ["(replaceTheWholeUserRecord,", "searchEverythingEverywhere)?", "unsaved"] {
            #expect(screen.contains(word), "\(word) broken:\n\(screen)")
        }
    }

    @Test func theStatusBarHintsComeFromTheFocusedPanesTable() {
        var state = Fixtures.loaded()
        let collectionHints = HelpCatalog.hints(for: state).map(\.help)
        #expect(collectionHints.starts(with: Keymaps.collection.filter(\.hint).map(\.help)))
        state.press(.char("2"))
        let requestHints = HelpCatalog.hints(for: state).map(\.help)
        #expect(requestHints.starts(with: Keymaps.request.filter(\.hint).map(\.help)))
    }
}

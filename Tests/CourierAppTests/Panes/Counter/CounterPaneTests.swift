import CourierApp
import CourierTerminal
import Foundation
import Testing

/// A pane added to the registry is a pane like the others: its number focuses it, Tab reaches it, the screen
/// draws it, its keys run its commands and can be rebound, help, the palette and the status bar list them,
/// and its own actions reach it. Nothing outside its folder names it.
@Suite("panes: a pane added through the registry")
struct CounterPaneTests {
    static func explorer(size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = AppState(size: size, collectionPath: "Collections", environment: "dev",
                             panes: PaneRegistry.standard.adding(CounterPane()))
        _ = update(&state, .collectionLoaded(Fixtures.collection))
        return state
    }

    static func count(_ state: AppState) -> Int { CounterPane().state(state).count }

    @Test func itsNumberFocusesItTheScreenDrawsItAndItsKeysRunItsCommands() {
        // Given the explorer with the counter pane added
        var state = Self.explorer()
        // When 6 is pressed, then + twice
        state.press(.char("6"))
        state.press(.char("+"), .char("+"))
        // Then the pane has the focus, counted twice, and is drawn in its slot with its number
        #expect(state.focus == CounterPane.id)
        #expect(Self.count(state) == 2)
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("┏━ 6 Counter ━"), "\(screen)")
        #expect(screen.contains("count: 2"), "\(screen)")
        // And the WebSocket pane it shares the slot with comes back when focused
        state.press(.char("5"))
        #expect(Snapshot.screen(state).joined(separator: "\n").contains("5 WebSocket"))
    }

    @Test func tabReachesItAfterTheOthersAndTheTabStripListsIt() {
        // Given the explorer on a small screen, the WebSocket pane focused
        var state = Self.explorer(size: Size(width: 80, height: 24))
        state.press(.char("5"))
        // When Tab is pressed
        state.press(Key(.tab))
        // Then the counter has the focus and the tab strip lists it; Tab again goes round to the first
        #expect(state.focus == CounterPane.id)
        #expect(Snapshot.screen(state)[0].hasSuffix(" 5 WebSocket  6 Counter"))
        state.press(Key(.tab))
        #expect(state.focus == .collection)
    }

    @Test func helpThePaletteAndTheStatusBarListItsKeys() throws {
        // Given the explorer with the counter pane focused
        var state = Self.explorer()
        state.press(.char("6"))
        // Then help has its section, named by its number and scope, and the global key that focuses it
        let help = HelpCatalog.lines(state.keys)
        #expect(help.contains("Counter (6) [counter]"))
        #expect(help.contains { $0.contains("+") && $0.contains("count up") && $0.hasSuffix("increment") })
        #expect(help.contains { $0.contains("6") && $0.contains("focus counter") && $0.hasSuffix("focusCounter") })
        // And the help screen opens on that section, the pane being focused
        state.press(.char("?"))
        #expect(Snapshot.screen(state).contains { $0.contains("Counter (6) [counter]") })
        state.press(Key(.escape))
        // And the status bar hints its key
        #expect(HelpCatalog.hints(for: state).first.map { "\($0.keys) \($0.help)" } == "+ count up")
        // And the palette lists its commands and runs them, focusing the pane first
        state.press(.char("1"), .char(":"))
        state.type("count up")
        state.press(Key(.enter))
        #expect(state.focus == CounterPane.id)
        #expect(Self.count(state) == 1)
    }

    @Test func itsKeysAreReboundInConfigJSONUnderItsScope() throws {
        // Given config.json binding the counter's increment to `i`
        var state = Self.explorer()
        let settings = try UserSettings.parse(Data(#"{"keys": {"counter": {"increment": "i"}}}"#.utf8),
                                              file: "/home/ada/.config/courier/config.json").keys
        #expect(state.useKeys(settings) == nil)
        // When the pane is focused and i pressed
        state.press(.char("6"), .char("i"), .char("+"))
        // Then i counts, + no longer does
        #expect(Self.count(state) == 1)
    }

    @Test func itsOwnActionsReachIt() {
        var state = Self.explorer()
        _ = update(&state, .pane(KeyScope("counter"), 41))
        #expect(Self.count(state) == 41)
    }
}

import CourierTerminal

/// What the log pane's keys do.
public enum LogPaneCommand: KeyCommandName {
    case down, up, pageDown, pageUp, top, bottom
    /// Opens the selected attempt's detail (headers, timings as numbers, error and cause).
    case openDetail
    /// Back from the detail to the rows.
    case closeDetail
    case toggleErrorsOnly
    /// Shows only the selected row's request, or everything again.
    case toggleOnlySelectedRequest
    case clear
}

extension LogPaneState {
    /// One keymap drives dispatch, the status bar hints and `?` help.
    public static let keymap: [KeyBinding<LogPaneCommand>] = [
        KeyBinding([.char("j"), Key(.down)], .down, "next row"),
        KeyBinding([.char("k"), Key(.up)], .up, "previous row"),
        KeyBinding([Key(.pageDown), .ctrl("f")], .pageDown, "page down"),
        KeyBinding([Key(.pageUp), .ctrl("b")], .pageUp, "page up"),
        KeyBinding([.char("g"), Key(.home)], .top, "oldest"),
        KeyBinding([.char("G"), Key(.end)], .bottom, "newest, and follow new rows"),
        KeyBinding([Key(.enter)], .openDetail, "attempt detail", hint: true),
        KeyBinding([Key(.escape), Key(.backspace)], .closeDetail, "back to the rows"),
        KeyBinding([.char("e")], .toggleErrorsOnly, "errors only", hint: true),
        KeyBinding([.char("f")], .toggleOnlySelectedRequest, "only this request", hint: true),
        KeyBinding([.char("x")], .clear, "clear the log", hint: true),
    ]
}

import CourierBody
import CourierHistory
import CourierTerminal

/// What the history pane's keys do.
public enum HistoryPaneCommand: KeyCommandName {
    case down, up, pageDown, pageUp, top, bottom
    /// Opens the selected entry (status, redacted headers, body preview).
    case open
    /// Back from the entry or the diff to the list; clears the search from the list.
    case back
    /// Starts typing a search (`/`); Enter keeps it, Esc clears it.
    case search
    /// Asks the app to put the selected entry's request into the editor.
    case restore
    /// Diffs the two marked entries, the marked one against the selected one, or the selected entry against
    /// the previous one of its request.
    case diff
    /// Marks or unmarks the selected entry for `diff` (at most two are kept).
    case mark
    /// Unified or side-by-side diff.
    case toggleLayout
    /// Every request, or only the selected entry's request.
    case toggleScope
    /// Reads the history folder again.
    case reload
}

/// What the history pane asks of the app; nil from `handle` means nothing.
public enum HistoryPaneRequest: Sendable, Hashable {
    /// Put this entry's request (method, URL, headers) into the request editor.
    case restore(HistoryEntry)
    /// The pane now shows the diff of these two entries (older first); the app need not do anything.
    case diff(older: HistoryEntry, newer: HistoryEntry)
    /// A line for the status bar (nothing to diff, a history folder that cannot be read, …).
    case message(String)
    /// Read this from the store off the loop thread and give the pane what was found (`apply`).
    case read(HistoryPaneRead)
}

extension HistoryPaneState {
    /// One keymap drives dispatch, the status bar hints and `?` help.
    public static let keymap: [KeyBinding<HistoryPaneCommand>] = [
        KeyBinding([.char("j"), Key(.down)], .down, "next entry / scroll"),
        KeyBinding([.char("k"), Key(.up)], .up, "previous entry / scroll"),
        KeyBinding([Key(.pageDown), .ctrl("f")], .pageDown, "page down"),
        KeyBinding([Key(.pageUp), .ctrl("b")], .pageUp, "page up"),
        KeyBinding([.char("g"), Key(.home)], .top, "newest"),
        KeyBinding([.char("G"), Key(.end)], .bottom, "oldest"),
        KeyBinding([Key(.enter)], .open, "show entry", hint: true),
        KeyBinding([Key(.escape), Key(.backspace)], .back, "back / clear search"),
        KeyBinding([.char("/")], .search, "search", hint: true),
        KeyBinding([.char("r")], .restore, "restore into editor", hint: true),
        KeyBinding([.char("d")], .diff, "diff with previous / marked", hint: true),
        KeyBinding([.char(" ")], .mark, "mark for diff", hint: true),
        KeyBinding([.char("s")], .toggleLayout, "side by side / unified"),
        KeyBinding([.char("a")], .toggleScope, "all requests / this request"),
        KeyBinding([.ctrl("r")], .reload, "reload history"),
    ]
}

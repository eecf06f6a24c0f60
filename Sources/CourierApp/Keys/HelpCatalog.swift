/// Help, status bar hints and palette entries, all read from the keymap tables.
public enum HelpCatalog {
    /// One documented key binding.
    public struct Entry: Sendable, Hashable {
        public var keys: String
        public var help: String
        public var command: AppCommand?
        public var hint: Bool
    }

    /// A titled group of entries in help.
    public struct Section: Sendable, Hashable {
        public var title: String
        public var entries: [Entry]
    }

    static func entries<C>(_ table: [KeyBinding<C>], _ wrap: (C) -> AppCommand?) -> [Entry] {
        table.map { Entry(keys: $0.keyLabel, help: $0.help, command: wrap($0.command), hint: $0.hint) }
    }

    /// Every section of the `?` screen.
    public static var sections: [Section] {
        [
            Section(title: "Everywhere", entries: entries(Keymaps.global) { .global($0) }),
            Section(title: "Collection (1)", entries: entries(Keymaps.collection) { .collection($0) }),
            Section(title: "Request (2)", entries: entries(Keymaps.request) { .request($0) }),
            Section(title: "Typing in a field", entries: entries(Keymaps.editing) { _ in nil }),
            Section(title: "Response (3)", entries: entries(ResponsePaneState.keymap) { .responsePane($0) }
                + entries(Keymaps.response) { .response($0) }),
            Section(title: "Cache compare (c in Response)", entries: entries(ComparePaneState.keymap) { .compare($0) }),
            Section(title: "History (F2)", entries: entries(HistoryPaneState.keymap) { _ in nil }),
            Section(title: "Log (4)", entries: entries(LogPaneState.keymap) { .log($0) }),
            Section(title: "WebSocket (5)", entries: entries(WebSocketPaneState.keymap) { .webSocket($0) }),
            Section(title: "WebSocket send box", entries: entries(WebSocketPaneState.composeKeymap) { _ in nil }),
        ]
    }

    /// The help screen as lines of text.
    public static var lines: [String] {
        var lines: [String] = []
        for section in sections {
            lines.append(section.title)
            let width = section.entries.map(\.keys.count).max() ?? 0
            for entry in section.entries {
                lines.append("  " + entry.keys.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.help)
            }
            lines.append("")
        }
        return lines
    }

    /// The status bar hints for the focused pane, then the global ones.
    public static func hints(for state: AppState) -> [Entry] {
        if state.isTyping { return typingHints(for: state) }
        if state.historyPane != nil && state.modals.isEmpty {
            return entries(HistoryPaneState.keymap) { _ in nil }.filter(\.hint)
        }
        let pane: [Entry] = switch state.focus {
        case .collection: entries(Keymaps.collection) { .collection($0) }
        case .request: entries(Keymaps.request) { .request($0) }
        case .response where comparing(state): entries(ComparePaneState.keymap) { .compare($0) }
        case .response: entries(ResponsePaneState.keymap) { .responsePane($0) } + entries(Keymaps.response) { .response($0) }
        case .log: entries(LogPaneState.keymap) { .log($0) }
        case .webSocket: entries(WebSocketPaneState.keymap) { .webSocket($0) }
        }
        // A global key the pane rebinds (Enter in the collection) is not hinted twice.
        let paneKeys = Set(pane.map(\.keys))
        return pane.filter(\.hint) + entries(Keymaps.global) { .global($0) }.filter { $0.hint && !paneKeys.contains($0.keys) }
    }

    /// What Enter and Esc do in the input being typed into, then the readline keys every input shares.
    static func typingHints(for state: AppState) -> [Entry] {
        func hint(_ keys: String, _ help: String) -> Entry { Entry(keys: keys, help: help, command: nil, hint: true) }
        let own: [Entry]
        if let top = state.modals.last {
            switch top {
            case .palette: own = [hint("Enter", "run"), hint("↑↓", "choose"), hint("Esc", "close")]
            default: own = [hint("Enter", "accept"), hint("Esc", "cancel")]
            }
        } else if state.historyPane != nil {
            own = [hint("Enter", "search"), hint("Esc", "cancel")]
        } else {
            switch state.focus {
            case .collection: own = [hint("Enter", "open"), hint("↑↓", "move"), hint("Esc", "clear filter")]
            case .request:
                let enter = state.editor.field == .url ? "send" : state.editor.selectedTextArea != nil ? "new line" : "done"
                own = [hint("Enter", enter), hint("Esc", "stop editing"), hint("Ctrl-S", "save")]
            case .response:
                let enter = switch state.responsePane?.prompt?.kind {
                case .filter?: "filter"
                case .goToLine?: "go"
                default: "search"
                }
                // The viewer's prompts take characters and Backspace only.
                return [hint("Enter", enter), hint("Esc", "cancel"), hint("Backspace", "delete")]
            case .webSocket where state.webSocketPane.mode == .composing:
                own = entries(WebSocketPaneState.composeKeymap) { _ in nil }.filter(\.hint)
            case .webSocket: own = [hint("Esc", "clear filter")]
            case .log: own = []
            }
        }
        return own + [hint("Ctrl-U", "clear to start"), hint("Ctrl-_", "undo")]
    }

    /// Everything the palette lists for `state`: every command, then themes and environments.
    public static func paletteItems(_ state: AppState) -> [Entry] {
        var items: [Entry] = []
        for section in sections {
            for entry in section.entries where entry.command != nil {
                let title = section.title.split(separator: " ").first.map(String.init) ?? section.title
                items.append(Entry(keys: entry.keys, help: "\(title): \(entry.help)", command: entry.command,
                                   hint: false))
            }
        }
        for name in state.themeNames {
            items.append(Entry(keys: "", help: "Theme: \(name)", command: .theme(name), hint: false))
        }
        items.append(Entry(keys: "", help: "Environment: none", command: .environment(nil), hint: false))
        for name in state.collection.environmentNames {
            items.append(Entry(keys: "", help: "Environment: \(name)", command: .environment(name), hint: false))
        }
        return items
    }

    /// The palette entries matching its filter, best first.
    public static func paletteMatches(_ state: AppState, filter: String) -> [Entry] {
        let items = paletteItems(state)
        guard !filter.isEmpty else { return items }
        return items.enumerated()
            .compactMap { offset, item in FuzzyMatch.score(filter, in: item.help).map { (offset, item, $0) } }
            .sorted { $0.2 != $1.2 ? $0.2 > $1.2 : $0.0 < $1.0 }
            .map(\.1)
    }

    static func comparing(_ state: AppState) -> Bool { state.comparePane != nil }
}

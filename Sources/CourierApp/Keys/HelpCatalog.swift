import CourierCollections

/// Help, status bar hints and palette entries, all read from the keymap tables.
public enum HelpCatalog {
    /// One documented key binding.
    public struct Entry: Sendable, Hashable {
        public var keys: String
        public var help: String
        public var command: AppCommand?
        public var hint: Bool
        /// The command's name in config.json's `"keys"`; nil for keys that are not rebound (typing).
        public var name: String? = nil
    }

    /// A titled group of entries in help.
    public struct Section: Sendable, Hashable {
        public var title: String
        public var entries: [Entry]
    }

    /// Entries of a table whose commands config.json can rebind: each carries its command's name.
    static func entries<C: KeyCommandName>(_ table: [KeyBinding<C>], _ wrap: (C) -> AppCommand?) -> [Entry] {
        table.map {
            Entry(keys: $0.keyLabel, help: $0.help, command: wrap($0.command), hint: $0.hint, name: $0.command.name)
        }
    }

    /// Entries of a typing table (readline keys, the send box), which are not rebound.
    static func typingEntries<C>(_ table: [KeyBinding<C>]) -> [Entry] {
        table.map { Entry(keys: $0.keyLabel, help: $0.help, command: nil, hint: $0.hint) }
    }

    /// Every section of the `?` screen for the keys in use; titles name the keys that reach each pane and the
    /// scope config.json rebinds its keys under.
    public static func sections(_ keys: KeyTables) -> [Section] {
        func key(_ command: AppCommand) -> String { keys.spelling(of: command) }
        func focus(_ pane: PaneID) -> String { key(.global(.focus(pane))) }
        return [
            Section(title: "Everywhere [global]", entries: entries(keys.global) { .global($0) }),
            Section(title: "Collection (\(focus(.collection))) [collection]",
                    entries: entries(keys.collection) { .collection($0) }),
            Section(title: "Request (\(focus(.request))) [request]", entries: entries(keys.request) { .request($0) }),
            Section(title: "Typing in a field", entries: typingEntries(Keymaps.editing)),
            Section(title: "Response (\(focus(.response))) [response]",
                    entries: entries(keys.responseViewer) { .responsePane($0) } + entries(keys.response) { .response($0) }),
            Section(title: "Cache compare (\(key(.response(.compare))) in Response) [compare]",
                    entries: entries(keys.compare) { .compare($0) }),
            Section(title: "History (\(key(.global(.history)))) [history]", entries: entries(keys.history) { _ in nil }),
            Section(title: "Log (\(focus(.log))) [log]", entries: entries(keys.log) { .log($0) }),
            Section(title: "WebSocket (\(focus(.webSocket))) [webSocket]",
                    entries: entries(keys.webSocket) { .webSocket($0) }),
            Section(title: "WebSocket send box", entries: typingEntries(WebSocketPaneState.composeKeymap)),
        ]
    }

    /// The help screen for the default keys.
    public static var lines: [String] { lines(.defaults) }

    /// The help screen as lines of text: keys, what they do, and the command's name for config.json
    /// (`[scope]` in the section title), so a user rebinding a key reads both off one screen.
    public static func lines(_ keys: KeyTables) -> [String] {
        var lines: [String] = []
        for section in sections(keys) {
            lines.append(section.title)
            let width = section.entries.map { label($0).count }.max() ?? 0
            let helpWidth = section.entries.map(\.help.count).max() ?? 0
            for entry in section.entries {
                var line = "  " + label(entry).padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.help
                if let name = entry.name {
                    line = line.padding(toLength: width + helpWidth + 6, withPad: " ", startingAt: 0) + name
                }
                lines.append(line)
            }
            lines.append("")
        }
        return lines
    }

    /// How help spells an entry's keys; an unbound command says so rather than leaving a gap.
    static func label(_ entry: Entry) -> String { entry.keys.isEmpty ? "(none)" : entry.keys }

    /// The status bar hints for the focused pane, then the global ones.
    public static func hints(for state: AppState) -> [Entry] {
        if state.isTyping { return typingHints(for: state) }
        if state.historyPane != nil && state.modals.isEmpty {
            return entries(state.keys.history) { _ in nil }.filter(\.hint).filter { !$0.keys.isEmpty }
        }
        let keys = state.keys
        let pane: [Entry] = switch state.focus {
        case .collection: entries(keys.collection) { .collection($0) }
        case .request: entries(keys.request) { .request($0) }
        case .response where comparing(state): entries(keys.compare) { .compare($0) }
        case .response: entries(keys.responseViewer) { .responsePane($0) } + entries(keys.response) { .response($0) }
        case .log: entries(keys.log) { .log($0) }
        case .webSocket: entries(keys.webSocket) { .webSocket($0) }
        }
        // A global key the pane rebinds (Enter in the collection) is not hinted twice; an unbound command not at all.
        let paneKeys = Set(pane.map(\.keys))
        return (pane.filter(\.hint) + entries(keys.global) { .global($0) }.filter { $0.hint && !paneKeys.contains($0.keys) })
            .filter { !$0.keys.isEmpty }
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
                // Save works while typing only on keys that type nothing.
                let saveKeys = state.keys.global.first { $0.command == .save }?.keys.filter { $0.typedText == nil } ?? []
                let save = saveKeys.map(\.description).joined(separator: "/")
                own = [hint("Enter", enter), hint("Esc", "stop editing")] + (save.isEmpty ? [] : [hint(save, "save")])
            case .response:
                let enter = switch state.responsePane?.prompt?.kind {
                case .filter?: "filter"
                case .goToLine?: "go"
                default: "search"
                }
                // The viewer's prompts take characters and Backspace only.
                return [hint("Enter", enter), hint("Esc", "cancel"), hint("Backspace", "delete")]
            case .webSocket where state.webSocketPane.mode == .composing:
                own = typingEntries(WebSocketPaneState.composeKeymap).filter(\.hint)
            case .webSocket: own = [hint("Esc", "clear filter")]
            case .log: own = []
            }
        }
        return own + [hint("Ctrl-U", "clear to start"), hint("Ctrl-_", "undo")]
    }

    /// Everything the palette lists for `state`: every command, then themes and environments.
    public static func paletteItems(_ state: AppState) -> [Entry] {
        var items: [Entry] = []
        for section in sections(state.keys) {
            for entry in section.entries where entry.command != nil {
                let title = section.title.split(separator: " ").first.map(String.init) ?? section.title
                items.append(Entry(keys: entry.keys, help: "\(title): \(entry.help)", command: entry.command,
                                   hint: false))
            }
        }
        for name in state.themeNames {
            items.append(Entry(keys: "", help: "Theme: \(name)", command: .theme(name), hint: false))
        }
        for language in CodeLanguage.allCases {
            items.append(Entry(keys: "", help: "\(AppState.copyAsCodeTitle) \(language.title)",
                               command: .copyAsCode(language), hint: false))
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

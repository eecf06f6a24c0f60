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
    /// `named: false` leaves the names out where nothing shows them (the status bar's hints, drawn every frame:
    /// a name is the enum case's `String(describing:)`, which is slow).
    static func entries<C: KeyCommandName>(_ table: [KeyBinding<C>], named: Bool = true,
                                           _ wrap: (C) -> AppCommand?) -> [Entry] {
        table.map {
            Entry(keys: $0.keyLabel, help: $0.help, command: wrap($0.command), hint: $0.hint,
                  name: named ? $0.command.name : nil)
        }
    }

    /// The entries of a pane's table; its commands are the palette's when the pane is listed there.
    static func entries(of pane: any Pane, _ keys: KeyTables, named: Bool = true) -> [Entry] {
        entries(keys.table(pane.scope), named: named) { pane.inPalette ? .pane($0) : nil }
    }

    /// Entries of a typing table (readline keys, the send box), which are not rebound.
    public static func typingEntries<C>(_ table: [KeyBinding<C>]) -> [Entry] {
        table.map { Entry(keys: $0.keyLabel, help: $0.help, command: nil, hint: $0.hint) }
    }

    /// Every section of the `?` screen for the keys in use: the pane of `first` (the focused one), the global
    /// keys, then every other pane's (each with the keys of its text fields) in the registry's order. Titles
    /// name the keys that reach each pane and the scope config.json rebinds its keys under.
    public static func sections(_ keys: KeyTables, first: KeyScope? = nil) -> [Section] {
        let panes = keys.panes.all.map { pane in
            (pane.scope, [Section(title: pane.helpTitle(keys), entries: entries(of: pane, keys))] + pane.typingSections)
        }
        let focused = panes.filter { $0.0 == first }.flatMap(\.1)
        return focused + [Section(title: "Everywhere [global]", entries: entries(keys.global) { .global($0) })]
            + panes.filter { $0.0 != first }.flatMap(\.1)
    }

    /// The help screen for the default keys.
    public static var lines: [String] { lines(.defaults) }

    /// The help screen as lines of text: keys, what they do, and the command's name for config.json
    /// (`[scope]` in the section title), so a user rebinding a key reads both off one screen. The section of
    /// `first` (the focused pane) comes first. Lines fit `columns`: what a key does is cut (with `…`) before
    /// the command's name is, and the name column is left out only when it would leave too little room.
    public static func lines(_ keys: KeyTables, first: KeyScope? = nil, columns: Int = .max) -> [String] {
        var lines: [String] = []
        for section in sections(keys, first: first) {
            lines.append(section.title)
            let width = section.entries.map { label($0).count }.max() ?? 0
            let nameWidth = section.entries.compactMap { $0.name?.count }.max() ?? 0
            let widest = section.entries.map(\.help.count).max() ?? 0
            // Room left for what a key does: beside the names when that leaves enough, else the whole rest.
            let beside = columns - (width + 4) - 2 - nameWidth
            let showsNames = beside >= min(widest, 16)
            let helpWidth = min(widest, showsNames ? beside : max(1, columns - (width + 4)))
            for entry in section.entries {
                let help = entry.help.count > helpWidth ? entry.help.prefix(max(0, helpWidth - 1)) + "…" : entry.help
                var line = "  " + label(entry).padding(toLength: width + 2, withPad: " ", startingAt: 0) + help
                if showsNames, let name = entry.name {
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

    /// The status bar hints for the pane that has the keys (an overlay open over it, or the layout), then the
    /// global ones.
    public static func hints(for state: AppState) -> [Entry] {
        if state.isTyping { return typingHints(for: state) }
        if state.modals.isEmpty, let overlay = state.panes.layoutOverlay(in: state) {
            return entries(of: overlay, state.keys, named: false).filter(\.hint).filter { !$0.keys.isEmpty }
        }
        let shown = state.panes.shown(on: state.focus, in: state)
        let pane = entries(of: shown, state.keys, named: false)
        // A global key the pane rebinds (Enter in the collection, `i/Enter` in the WebSocket pane) does what the
        // pane says there, so its global meaning is not hinted; an unbound command is not hinted at all.
        let paneKeys = Set(state.keys.table(shown.scope).flatMap(\.keys))
        let reachable = state.keys.global.filter { $0.hint && !$0.keys.allSatisfy(paneKeys.contains) }
        let global = entries(reachable, named: false) { .global($0) }
        return (pane.filter(\.hint) + global).filter { !$0.keys.isEmpty }
    }

    /// A hint written for the moment, not read from a table: what Enter does in the field being typed into.
    public static func hint(_ keys: String, _ help: String) -> Entry {
        Entry(keys: keys, help: help, command: nil, hint: true)
    }

    /// The readline keys every text field shares, hinted after a field's own.
    public static let editingHints = [hint("Ctrl-U", "clear to start"), hint("Ctrl-_", "undo")]

    /// What Enter and Esc do in the input being typed into, then the readline keys every input shares.
    static func typingHints(for state: AppState) -> [Entry] {
        if let top = state.modals.last {
            let own: [Entry] = switch top {
            case .palette: [hint("Enter", "run"), hint("↑↓", "choose"), hint("Esc", "close")]
            default: [hint("Enter", "accept"), hint("Esc", "cancel")]
            }
            return own + editingHints
        }
        if let overlay = state.panes.layoutOverlay(in: state) { return overlay.typingHints(state) }
        return state.panes.tile(state.focus).typingHints(state)
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
}

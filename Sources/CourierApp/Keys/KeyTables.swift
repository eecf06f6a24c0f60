import CourierTerminal

/// The keymap tables the explorer dispatches with: the defaults (`Keymaps.global`, each pane's `keymap`)
/// with the user's rebindings from config.json applied. Dispatch, the status bar hints, `?` help and the
/// palette read the state's tables, so all of them show the keys the user chose.
///
/// The keys of typing in a field (readline's) and of the WebSocket send box are not here: they are not
/// rebound, so a rebinding can never turn a typed character into a command.
public struct KeyTables: Sendable, Hashable {
    public var global: [KeyBinding<GlobalCommand>]
    /// The panes whose keys these are; help and the palette list them in this order.
    public let panes: PaneRegistry
    /// Every scope in order: global, then each pane's in the registry's order.
    public let scopes: [KeyScope]
    /// Each pane's table, its commands set aside from their types (`PaneCommand`).
    private var tables: [KeyScope: [KeyBinding<PaneCommand>]]

    /// The default keys of `panes`' panes.
    public init(panes: PaneRegistry = .standard) {
        self.panes = panes
        global = Keymaps.global(tiles: panes.tiles.map(\.id))
        scopes = [.global] + panes.all.map(\.scope)
        tables = [:]
        for pane in panes.all { tables[pane.scope] = Self.erased(pane) }
    }

    /// The tables as shipped.
    public static let defaults = KeyTables()

    /// Tables are equal when their keys are: the scopes name the panes.
    public static func == (a: KeyTables, b: KeyTables) -> Bool {
        a.global == b.global && a.scopes == b.scopes && a.tables == b.tables
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(global)
        hasher.combine(scopes)
        hasher.combine(tables)
    }

    private static func erased<P: Pane>(_ pane: P) -> [KeyBinding<PaneCommand>] {
        pane.keymap.map { KeyBinding($0.keys, PaneCommand(pane.scope, $0.command), $0.help, hint: $0.hint) }
    }

    /// A pane scope's table in the pane's order, with the keys in use.
    public func table(_ scope: KeyScope) -> [KeyBinding<PaneCommand>] { tables[scope] ?? [] }

    /// `pane`'s keymap with the keys in use, in its own command type.
    public func keymap<P: Pane>(of pane: P) -> [KeyBinding<P.Command>] {
        table(pane.scope).compactMap { binding in
            binding.command.command(as: P.Command.self)
                .map { KeyBinding(binding.keys, $0, binding.help, hint: binding.hint) }
        }
    }

    /// One command of a scope and its keys, whichever table holds it.
    struct Row: Sendable, Hashable {
        var name: String
        var keys: [Key]
    }

    /// The commands of a scope in table order.
    func rows(_ scope: KeyScope) -> [Row] {
        scope == .global ? global.map { Row(name: $0.command.name, keys: $0.keys) }
            : table(scope).map { Row(name: $0.command.name, keys: $0.keys) }
    }

    /// Gives each row of a scope its keys, in the order `rows(scope)` listed them.
    mutating func setKeys(_ keys: [[Key]], in scope: KeyScope) {
        if scope == .global {
            for (index, keys) in zip(global.indices, keys) { global[index].keys = keys }
        } else if var table = tables[scope] {
            for (index, keys) in zip(table.indices, keys) { table[index].keys = keys }
            tables[scope] = table
        }
    }

    /// The command names of a scope, as config.json and help spell them.
    public func commandNames(in scope: KeyScope) -> [String] { rows(scope).map(\.name) }
}

extension KeyTables {
    /// How a message names the key of a command, so hints follow the user's keys: its first key as help
    /// spells it (`Enter`), or where to find it when it has none (`the palette`).
    public func spelling(of command: AppCommand) -> String {
        let key: Key? = switch command {
        case .global(let command): global.first { $0.command == command }?.keys.first
        case .pane(let command): table(command.scope).first { $0.command == command }?.keys.first
        case .theme, .environment, .copyAsCode: nil
        }
        return key?.description ?? "the palette"
    }
}

import CourierTerminal

/// The keymap tables the explorer dispatches with: the defaults (`Keymaps`, each pane's `keymap`) with the
/// user's rebindings from config.json applied. Dispatch, the status bar hints, `?` help and the palette read
/// the state's tables, so all of them show the keys the user chose.
///
/// The keys of typing in a field (readline's) and of the WebSocket send box are not here: they are not
/// rebound, so a rebinding can never turn a typed character into a command.
public struct KeyTables: Sendable, Hashable {
    public var global = Keymaps.global
    public var collection = Keymaps.collection
    public var request = Keymaps.request
    /// The response viewer's keys; the `response` scope is this table and `response` together.
    public var responseViewer = ResponsePaneState.keymap
    public var response = Keymaps.response
    public var compare = ComparePaneState.keymap
    public var history = HistoryPaneState.keymap
    public var log = LogPaneState.keymap
    public var webSocket = WebSocketPaneState.keymap

    /// The default keys.
    public init() {}

    /// The tables as shipped.
    public static let defaults = KeyTables()

    /// One command of a scope and its keys, whichever table holds it.
    struct Row: Sendable, Hashable {
        var name: String
        var keys: [Key]
    }

    /// The commands of a scope in table order.
    func rows(_ scope: KeyScope) -> [Row] {
        func rows<C: KeyCommandName>(_ table: [KeyBinding<C>]) -> [Row] {
            table.map { Row(name: $0.command.name, keys: $0.keys) }
        }
        return switch scope {
        case .global: rows(global)
        case .collection: rows(collection)
        case .request: rows(request)
        case .response: rows(responseViewer) + rows(response)
        case .compare: rows(compare)
        case .history: rows(history)
        case .log: rows(log)
        case .webSocket: rows(webSocket)
        }
    }

    /// Gives each row of a scope its keys, in the order `rows(scope)` listed them.
    mutating func setKeys(_ keys: [[Key]], in scope: KeyScope) {
        func set<C>(_ table: inout [KeyBinding<C>], _ keys: ArraySlice<[Key]>) {
            for (index, keys) in zip(table.indices, keys) { table[index].keys = keys }
        }
        let all = keys[...]
        switch scope {
        case .global: set(&global, all)
        case .collection: set(&collection, all)
        case .request: set(&request, all)
        case .response:
            set(&responseViewer, all.prefix(responseViewer.count))
            set(&response, all.dropFirst(responseViewer.count))
        case .compare: set(&compare, all)
        case .history: set(&history, all)
        case .log: set(&log, all)
        case .webSocket: set(&webSocket, all)
        }
    }

    /// The command names of a scope, as config.json and help spell them.
    public func commandNames(in scope: KeyScope) -> [String] { rows(scope).map(\.name) }
}

extension KeyTables {
    /// How a message names the key of a command, so hints follow the user's keys: its first key as help
    /// spells it (`Enter`), or where to find it when it has none (`the palette`).
    public func spelling(of command: AppCommand) -> String {
        func first<C>(_ table: [KeyBinding<C>], _ command: C) -> Key? {
            table.first { $0.command == command }?.keys.first
        }
        let key: Key? = switch command {
        case .global(let command): first(global, command)
        case .collection(let command): first(collection, command)
        case .request(let command): first(request, command)
        case .response(let command): first(response, command)
        case .responsePane(let command): first(responseViewer, command)
        case .compare(let command): first(compare, command)
        case .log(let command): first(log, command)
        case .webSocket(let command): first(webSocket, command)
        case .theme, .environment, .copyAsCode: nil
        }
        return key?.description ?? "the palette"
    }
}

import CourierTerminal

/// The history of responses, drawn over the whole layout while open and taking every key there (help, the
/// palette, quit and suspend still work).
struct HistoryPane: Pane {
    let scope = KeyScope("history")
    let placement = PanePlacement.overLayout
    var keymap: [KeyBinding<HistoryPaneCommand>] { HistoryPaneState.keymap }
    /// Its commands act on the open list, so the palette, run from anywhere, does not list them.
    var inPalette: Bool { false }

    func helpTitle(_ keys: KeyTables) -> String { "History (\(keys.spelling(of: .global(.history)))) [history]" }

    func isOpen(_ state: AppState) -> Bool { state.historyPane != nil }

    func isTyping(_ state: AppState) -> Bool {
        if case .searching? = state.historyPane?.mode { return true }
        return false
    }

    func handle(_ key: Key, in state: inout AppState) -> [Effect]? { state.handleHistoryKey(key) }

    func run(_ command: HistoryPaneCommand, in state: inout AppState) -> [Effect] {
        guard let request = state.historyPane?.handle(command) else { return [] }
        return state.handleHistoryRequest(request)
    }

    func paste(_ text: String, in state: inout AppState) -> [Effect]? {
        state.status = StatusMessage("Close history (Esc) to paste into the request")
        return []
    }

    func update(_ action: Action, in state: inout AppState) -> [Effect]? {
        switch action {
        case .historyOpened(let pane):
            state.openHistory(pane)
            return []
        case .historyRead(let result):
            guard let request = state.historyPane?.apply(result) else { return [] }
            return state.handleHistoryRequest(request)
        default:
            return nil
        }
    }

    func typingHints(_ state: AppState) -> [HelpCatalog.Entry] {
        [HelpCatalog.hint("Enter", "search"), HelpCatalog.hint("Esc", "cancel")] + HelpCatalog.editingHints
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        guard let history = state.historyPane else { return nil }
        return HistoryPaneView.draw(history, context, into: &buffer)
    }
}

extension KeyTables {
    /// The keys of the history pane, as in use.
    public var history: [KeyBinding<HistoryPaneCommand>] { keymap(of: HistoryPane()) }
}

import CourierTerminal

/// The request editor as a pane: method, URL, query, headers, body, auth and options of the open request.
struct RequestPane: Pane {
    let scope = KeyScope(PaneID.request.name)
    let placement = PanePlacement.tile(.request, .top)
    var keymap: [KeyBinding<RequestCommand>] { Keymaps.request }
    var typingSections: [HelpCatalog.Section] {
        [HelpCatalog.Section(title: "Typing in a field", entries: HelpCatalog.typingEntries(Keymaps.editing))]
    }

    func isTyping(_ state: AppState) -> Bool { state.editor.editing }

    func run(_ command: RequestCommand, in state: inout AppState) -> [Effect] { state.runRequest(command) }

    func type(_ key: Key, in state: inout AppState) -> [Effect] { state.handleEditKey(key) }

    func paste(_ text: String, in state: inout AppState) -> [Effect]? {
        guard !state.editor.isEmpty else { return nil }
        // A curl command in the URL field is the request it describes, not a URL.
        if state.editor.field == .url, AppState.isCurlCommand(text) {
            state.pasteCurl(text)
            return []
        }
        state.editor.editing = true
        state.editor.editSelected(.paste(text))
        return []
    }

    func typingHints(_ state: AppState) -> [HelpCatalog.Entry] {
        let editor = state.editor
        let enter = editor.field == .url ? "send" : editor.selectedTextArea != nil ? "new line" : "done"
        // Save works while typing only on keys that type nothing.
        let saveKeys = state.keys.global.first { $0.command == .save }?.keys.filter { $0.typedText == nil } ?? []
        let save = saveKeys.map(\.description).joined(separator: "/")
        return [HelpCatalog.hint("Enter", enter), HelpCatalog.hint("Esc", "stop editing")]
            + (save.isEmpty ? [] : [HelpCatalog.hint(save, "save")]) + HelpCatalog.editingHints
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        RequestView.draw(state, context, into: &buffer)
    }
}

extension AppCommand {
    /// A command of the request editor.
    public static func request(_ command: RequestCommand) -> AppCommand { RequestPane().appCommand(command) }
}

extension KeyTables {
    /// The keys of the request editor, as in use.
    public var request: [KeyBinding<RequestCommand>] { keymap(of: RequestPane()) }
}

extension PaneID {
    /// The request editor.
    public static let request = PaneID(2, name: "request", title: "Request")
}

extension Keymaps {
    /// The pane's keys as shipped (`keymap`).
    public static let request: [KeyBinding<RequestCommand>] = [
        KeyBinding([.char("e"), .char("i")], .edit, "edit", hint: true),
        KeyBinding([.char("k"), Key(.up)], .fieldUp, "URL line"),
        KeyBinding([.char("j"), Key(.down)], .fieldDown, "tab below"),
        KeyBinding([.char("l"), Key(.right), .char("]")], .nextTab, "next tab"),
        KeyBinding([.char("h"), Key(.left), .char("[")], .previousTab, "previous tab"),
        KeyBinding([.char("m")], .nextMethod, "method", hint: true),
        KeyBinding([.char("M")], .previousMethod, "previous method"),
        KeyBinding([.char("v")], .toggleResolved, "show variables resolved"),
        KeyBinding([.char("L")], .toggleLive, "live mode", hint: true),
        KeyBinding([.char("u")], .undo, "undo in field"),
        KeyBinding([.char("J")], .nextOption, "next option row"),
        KeyBinding([.char("K")], .previousOption, "previous option row"),
    ]
}

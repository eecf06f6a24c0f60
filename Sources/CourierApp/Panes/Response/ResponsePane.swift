import CourierTerminal

/// The Response pane: the send's phase, then the response viewer. Its scope holds two tables, the viewer's
/// keys and the explorer's own (copy, curl, compare); the viewer's work only while a response is shown.
struct ResponsePane: Pane {
    enum Command: KeyCommandName {
        case viewer(ResponsePaneCommand)
        case explorer(ResponseCommand)

        var name: String {
            switch self {
            case .viewer(let command): command.name
            case .explorer(let command): command.name
            }
        }
    }

    let scope = KeyScope(PaneID.response.name)
    let placement = PanePlacement.tile(.response, .middle)
    var keymap: [KeyBinding<Command>] {
        ResponsePaneState.keymap.map { KeyBinding($0.keys, .viewer($0.command), $0.help, hint: $0.hint) }
            + Keymaps.response.map { KeyBinding($0.keys, .explorer($0.command), $0.help, hint: $0.hint) }
    }

    /// The viewer's search, filter or go-to-line prompt takes the keys while open.
    func isTyping(_ state: AppState) -> Bool { state.viewerPrompting }
    var globalKeysWhileTyping: Bool { false }
    func needsTick(_ state: AppState) -> Bool { state.responsePane?.isWorking == true }
    func tick(in state: inout AppState) { state.responsePane?.advance() }

    func command(for key: Key, in state: AppState) -> Command? {
        guard let command = state.keys.keymap(of: self).command(for: key) else { return nil }
        if case .viewer = command, !state.viewerActive { return nil }
        return command
    }

    func run(_ command: Command, in state: inout AppState) -> [Effect] {
        switch command {
        case .viewer(let command): state.runResponsePane(command)
        case .explorer(let command): state.runResponse(command)
        }
    }

    /// Keys while the viewer's prompt is open: they edit it.
    func type(_ key: Key, in state: inout AppState) -> [Effect] {
        guard state.viewerActive, let command = state.responsePane?.command(for: key, keymap: state.keys.responseViewer)
        else { return [] }
        return state.runResponsePane(command)
    }

    func scroll(by delta: Int, in state: inout AppState) {
        for _ in 0..<3 { _ = state.runResponsePane(delta < 0 ? .lineUp : .lineDown) }
    }

    func typingHints(_ state: AppState) -> [HelpCatalog.Entry] {
        let enter = switch state.responsePane?.prompt?.kind {
        case .filter?: "filter"
        case .goToLine?: "go"
        default: "search"
        }
        return [HelpCatalog.hint("Enter", enter), HelpCatalog.hint("Esc", "cancel"), HelpCatalog.hint("↑↓", "history")]
            + HelpCatalog.editingHints
    }

    /// Pasted text goes into the open prompt (a JSONPath, a search), not the request.
    func paste(_ text: String, in state: inout AppState) -> [Effect]? {
        guard state.viewerPrompting else { return nil }
        state.responsePane?.prompt?.line.paste(text)
        return []
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        guard state.viewerActive, let pane = state.responsePane else {
            return ResponsePhaseView.draw(state, context, into: &buffer)
        }
        return ResponsePaneView.draw(ShownResponse(pane, latency: state.shownLatency), context, into: &buffer)
    }
}

extension AppCommand {
    /// One of the explorer's own commands in the Response pane.
    public static func response(_ command: ResponseCommand) -> AppCommand { ResponsePane().appCommand(.explorer(command)) }
    /// A command of the response viewer.
    public static func responsePane(_ command: ResponsePaneCommand) -> AppCommand {
        ResponsePane().appCommand(.viewer(command))
    }
}

extension KeyTables {
    /// The response viewer's keys, as in use.
    public var responseViewer: [KeyBinding<ResponsePaneCommand>] {
        responseKeys { if case .viewer(let command) = $0 { command } else { nil } }
    }

    /// The explorer's own keys in the Response pane, as in use.
    public var response: [KeyBinding<ResponseCommand>] {
        responseKeys { if case .explorer(let command) = $0 { command } else { nil } }
    }

    /// One of the Response pane's two tables, as in use.
    private func responseKeys<C>(_ part: (ResponsePane.Command) -> C?) -> [KeyBinding<C>] {
        keymap(of: ResponsePane()).compactMap { binding in
            part(binding.command).map { KeyBinding(binding.keys, $0, binding.help, hint: binding.hint) }
        }
    }
}

extension PaneID {
    /// The Response pane.
    public static let response = PaneID(3, name: "response", title: "Response")
}

extension Keymaps {
    /// The explorer's keys in the Response pane as shipped, after the response viewer's own (`keymap`).
    public static let response: [KeyBinding<ResponseCommand>] = [
        KeyBinding([.char("Y")], .copyBody, "copy body (OSC 52)"),
        KeyBinding([.char("C")], .copyCurl, "copy as curl", hint: true),
        KeyBinding([.char("X")], .copyCode, "copy request as code (choose the language)"),
        KeyBinding([.char("c")], .compare, "compare cached with revalidated", hint: true),
    ]
}

import CourierTerminal

/// The WebSocket pane: the connection of the open WebSocket request, its messages, filter and send box.
struct WebSocketPane: Pane {
    let scope = KeyScope(PaneID.webSocket.name)
    let placement = PanePlacement.tile(.webSocket, .bottomRight)
    var keymap: [KeyBinding<WebSocketPaneCommand>] { WebSocketPaneState.keymap }
    var typingSections: [HelpCatalog.Section] {
        [HelpCatalog.Section(title: "WebSocket send box",
                             entries: HelpCatalog.typingEntries(WebSocketPaneState.composeKeymap))]
    }

    /// The send box and the filter take every key while open.
    func isTyping(_ state: AppState) -> Bool { state.webSocketPane.mode != .browse }
    var globalKeysWhileTyping: Bool { false }

    /// The countdown to a reconnect moves.
    func needsTick(_ state: AppState) -> Bool {
        switch state.webSocketPane.connection {
        case .connecting, .reconnecting: true
        default: false
        }
    }

    func tick(in state: inout AppState) { state.webSocketPane.tick(now: state.now) }

    func run(_ command: WebSocketPaneCommand, in state: inout AppState) -> [Effect] {
        state.webSocketEffects(state.webSocketPane.handle(command, masker: state.screenMasker))
    }

    func type(_ key: Key, in state: inout AppState) -> [Effect] {
        let keymap = state.keys.webSocket
        return state.webSocketEffects(state.webSocketPane.handle(key: key, keymap: keymap, masker: state.screenMasker))
    }

    func paste(_ text: String, in state: inout AppState) -> [Effect]? {
        state.webSocketPane.paste(text)
        return []
    }

    func update(_ action: Action, in state: inout AppState) -> [Effect]? {
        switch action {
        case .webSocketEvents(let batch):
            state.webSocketPane.apply(batch, masker: state.screenMasker)
            // A gRPC call's HTTP/2 request is the client's to log; a WebSocket's connects are logged here.
            if state.webSocketJob?.draft.kind != .grpc {
                let time = state.clock()
                for event in batch.events { state.log.apply(stream: event, method: "WS", at: time) }
            }
            // A TLS failure may be a wrong passphrase: it is forgotten, so the next connect asks again.
            if batch.events.contains(where: { if case .error(let error) = $0 { error.kind == .tls } else { false } }) {
                state.certificatePassphrase = nil
            }
            return state.endedStreamEffects()
        case .webSocketResolved(let unverifiedTLS, let messages):
            state.webSocketPane.resolved(unverifiedTLS: unverifiedTLS, messages: messages)
        case .grpcCallLive(let generation):
            state.grpcCallLive(generation: generation)
        case .webSocketUnresolved(let failure):
            state.webSocketPane.unresolved(state.explained(failure).message)
            if failure.kind == .certificatePassphrase { state.askForCertificatePassphrase() }
        default:
            return nil
        }
        return []
    }

    func typingHints(_ state: AppState) -> [HelpCatalog.Entry] {
        let own = state.webSocketPane.mode == .composing
            ? HelpCatalog.typingEntries(WebSocketPaneState.composeKeymap).filter(\.hint)
            : [HelpCatalog.hint("Esc", "clear filter")]
        return own + HelpCatalog.editingHints
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        WebSocketPaneView.draw(state.webSocketPane, context, into: &buffer)
    }
}

extension AppCommand {
    /// A command of the WebSocket pane.
    public static func webSocket(_ command: WebSocketPaneCommand) -> AppCommand { WebSocketPane().appCommand(command) }
}

extension KeyTables {
    /// The keys of the WebSocket pane, as in use.
    public var webSocket: [KeyBinding<WebSocketPaneCommand>] { keymap(of: WebSocketPane()) }
}

extension PaneID {
    /// The WebSocket pane.
    public static let webSocket = PaneID(5, name: "webSocket", title: "WebSocket")
}

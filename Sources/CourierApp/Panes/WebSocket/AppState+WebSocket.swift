import Foundation

extension AppState {
    /// The pane's effects as the app's: saving asks for a file name first; the rest go to the session.
    mutating func webSocketEffects(_ effects: [WebSocketPaneEffect]) -> [Effect] {
        effects.compactMap { effect in
            guard effect == .saveMessages else { return .webSocket(effect) }
            let title = webSocketPane.droppedCount > 0
                ? "Save the last \(webSocketPane.entries.count) messages (older ones were dropped) to file"
                : "Save the messages to file"
            modals.append(.prompt(PromptState(title: title, text: "websocket.ndjson", purpose: .saveWebSocketMessages)))
            return nil
        }
    }
}

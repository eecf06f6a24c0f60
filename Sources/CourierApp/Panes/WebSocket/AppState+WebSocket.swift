import Foundation

extension AppState {
    /// The pane's effects as the app's: saving asks for a file name first; the rest go to the session.
    mutating func webSocketEffects(_ effects: [WebSocketPaneEffect]) -> [Effect] {
        // Connecting is sending the pane's request: its `# @note` and `# @prompt` questions come first.
        if effects.contains(where: { if case .connect = $0 { true } else { false } }) {
            // A GRPC request's call opens in the pane when its method streams: connecting sends it again.
            if editor.opensWebSocketPane || (editor.kind == .grpc && focus == .webSocket) { return send() }
            // The pane holds a gRPC call but another request is open: calling again is its request's send.
            if let job = webSocketJob, job.draft.kind == .grpc {
                status = StatusMessage("Open '\(job.draft.name)' to call it again (Enter sends it)")
                return []
            }
            var job = webSocketJob
            job?.certificatePassphrase = certificatePassphrase
            return webSocketConnect(effects, job: job)
        }
        return effects.compactMap { effect in
            guard effect == .saveMessages else { return .webSocket(effect) }
            let title = webSocketPane.droppedCount > 0
                ? "Save the last \(webSocketPane.entries.count) messages (older ones were dropped) to file"
                : "Save the messages to file"
            modals.append(.prompt(PromptState(title: title, text: "websocket.ndjson", purpose: .saveWebSocketMessages)))
            return nil
        }
    }

    /// The pane's connect as the request says (`webSocketConnect`), resolved by the runner; without a request
    /// (a pane given only a URL) it connects to the URL alone.
    func webSocketConnect(_ effects: [WebSocketPaneEffect], job: SendJob?) -> [Effect] {
        effects.map { effect in
            guard case .connect = effect, let job else { return .webSocket(effect) }
            return .webSocketConnect(job: job, subscriptions: webSocketPane.subscriptionPositions)
        }
    }

    /// A streaming GRPC request's call opened: the send is over (the Response pane has nothing to show), and
    /// the live pane, loaded with the request, shows the call when the request is still the one open.
    mutating func grpcCallLive(generation: Int) {
        liveCallGeneration = generation
        guard generation == self.generation else { return }
        inFlight = nil
        flight = nil
        updateSession(generation: generation) { $0.response.phase = .idle }
        loadWebSocketPane()
        focus = .webSocket
        if zoomed != nil { zoomed = .webSocket }
    }
}

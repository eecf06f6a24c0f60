import CourierHTTP
import Foundation

extension AppState {
    mutating func runGlobal(_ command: GlobalCommand) -> [Effect] {
        switch command {
        case .focusNext: return runGlobal(.focus(focus.next))
        case .focusPrevious: return runGlobal(.focus(focus.previous))
        case .focus(let pane):
            editor.editing = false
            tree.filtering = false
            focus = pane
            if zoomed != nil { zoomed = pane }
            return []
        case .send:
            return send()
        case .cancel:
            guard inFlight != nil else {
                status = StatusMessage("No request in flight")
                return []
            }
            // A result that still arrives belongs to the cancelled generation and is dropped.
            generation += 1
            inFlight = nil
            response.phase = .cancelled
            return [.cancelSend]
        case .save:
            return save()
        case .zoom:
            zoomed = zoomed == nil ? focus : nil
            return []
        case .palette:
            modals.append(.palette(PaletteState()))
            return []
        case .history:
            return [.openHistory(requestKey: currentHistoryKey)]
        case .historyAll:
            return [.openHistory(requestKey: nil)]
        case .help:
            modals.append(.help(scroll: 0))
            return []
        case .quit:
            if editor.isDirty {
                modals.append(.confirm(ConfirmState(message: "Quit and lose unsaved edits to '\(editor.name)'?",
                                                    onYes: .quit)))
            } else {
                shouldQuit = true
            }
            return []
        case .suspend:
            shouldSuspend = true
            return []
        case .chooseEnvironment:
            modals.append(.palette(PaletteState(filter: "Environment:")))
            return []
        case .chooseTheme:
            modals.append(.palette(PaletteState(filter: "Theme:")))
            return []
        case .cookieJar:
            return [.listCookies(environment: environment)]
        }
    }

    // MARK: - Sending

    /// The open draft as a job for the effect runner, which resolves its variables.
    var sendJob: SendJob { SendJob(ref: editor.origin, draft: editor.draft, environment: environment) }

    /// Sends the open request now, or connects when it is a WebSocket request.
    mutating func send() -> [Effect] {
        guard !editor.isEmpty else {
            status = StatusMessage("Open a request first: Enter on one in the collection (1)")
            return []
        }
        editor.editing = false
        if editor.method == "WEBSOCKET" {
            loadWebSocketPane()
            focus = .webSocket
            if zoomed != nil { zoomed = .webSocket }
            return webSocketPane.handle(.connect).map { .webSocket($0) }
        }
        generation += 1
        inFlight = generation
        // The new response's latency shows once it is recorded under its own key.
        responseKey = nil
        response.phase = .sending(method: editor.method, url: Variables.resolve(editor.url.text, values: variables))
        response.scroll = 0
        return [.send(generation: generation, job: sendJob)]
    }

    /// In live mode, a send through the debounce when an edit changed the request.
    mutating func liveSendIfEdited(since before: RequestDraft) -> [Effect] {
        guard live, editor.draft != before, !editor.isEmpty, editor.method != "WEBSOCKET" else { return [] }
        generation += 1
        inFlight = generation
        return [.sendLive(generation: generation, job: sendJob, debounce: liveDebounce)]
    }

    /// Points the WebSocket pane at the open request, variables resolved, when it is not there already.
    mutating func loadWebSocketPane() {
        let values = variables
        let url = Variables.resolve(editor.url.text, values: values)
        let messages = editor.messages.map { Variables.resolve($0, values: values) }
        guard webSocketPane.url != url || webSocketPane.savedMessages.map(\.text) != messages else { return }
        webSocketPane.load(url: url, savedMessages: messages)
    }

    // MARK: - Saving

    mutating func save() -> [Effect] {
        editor.editing = false
        guard let origin = editor.origin else {
            status = StatusMessage("Nothing to save: open a request from the collection first")
            return []
        }
        guard editor.isDirty else {
            status = StatusMessage("No changes to save")
            return []
        }
        return [.save(origin, editor.draft)]
    }
}

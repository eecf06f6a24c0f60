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
        case .chooseEnvironment:
            modals.append(.palette(PaletteState(filter: "Environment:")))
            return []
        case .chooseTheme:
            modals.append(.palette(PaletteState(filter: "Theme:")))
            return []
        }
    }

    // MARK: - Sending

    /// Sends the open request now, or connects when it is a WebSocket request.
    mutating func send() -> [Effect] {
        guard !editor.isEmpty else {
            status = StatusMessage("Open a request first: Enter on one in the collection (1)")
            return []
        }
        editor.editing = false
        switch prepareRequest() {
        case .failure(let problem):
            status = StatusMessage(problem.message, kind: .error)
            return []
        case .success(let request):
            if editor.method == "WEBSOCKET" {
                return [.connectWebSocket(url: request.url.absoluteString, headers: request.headers)]
            }
            generation += 1
            inFlight = generation
            response.phase = .sending(method: request.method.rawValue, url: request.url.absoluteString)
            response.scroll = 0
            return [.send(generation: generation, request: request)]
        }
    }

    /// In live mode, a send through the debounce when an edit changed the request.
    mutating func liveSendIfEdited(since before: RequestDraft) -> [Effect] {
        guard live, editor.draft != before, !editor.isEmpty else { return [] }
        guard case .success(let request) = prepareRequest() else { return [] }
        generation += 1
        inFlight = generation
        return [.sendLive(generation: generation, request: request, debounce: liveDebounce)]
    }

    /// A problem that stops the draft from being sent.
    struct PrepareProblem: Error { var message: String }

    /// The draft with its variables resolved, as a request the core can send.
    func prepareRequest() -> Result<HTTPRequest, PrepareProblem> {
        let draft = editor.draft
        let values = variables
        var unknown: [String] = Variables.unknown(in: draft.url, values: values) + Variables.unknown(in: draft.body, values: values)
        for field in draft.headers { unknown += Variables.unknown(in: field.value, values: values) }
        if let first = unknown.first {
            let hint = environment == nil ? " (choose an environment: E)" : " in environment '\(environment!)'"
            return .failure(PrepareProblem(message: "Unknown variable {{\(first)}}" + hint))
        }
        let urlText = Variables.resolve(draft.url, values: values).trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: urlText), url.scheme != nil, url.host != nil else {
            return .failure(PrepareProblem(message: "Not a URL: \(urlText)"))
        }
        var headers = HTTPHeaders()
        for field in draft.headers { headers.add(field.name, Variables.resolve(field.value, values: values)) }
        let body = Variables.resolve(draft.body, values: values)
        let method = draft.isWebSocket ? HTTPMethod.get : HTTPMethod(draft.method)
        return .success(HTTPRequest(
            method: method, url: url, headers: headers, body: body.isEmpty ? .empty : .data(Data(body.utf8)),
            timeout: draft.timeout.map { .milliseconds(Int64($0 * 1000)) }, cacheMode: draft.cacheMode,
            maxAttempts: draft.maxAttempts))
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

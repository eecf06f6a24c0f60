import CourierCollections
import CourierHTTP
import Foundation

extension AppState {
    mutating func runGlobal(_ command: GlobalCommand) -> [Effect] {
        switch command {
        case .focusNext: return runGlobal(.focus(panes.tile(after: focus)))
        case .focusPrevious: return runGlobal(.focus(panes.tile(after: focus, step: -1)))
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
                // A streaming GRPC call handed to the live pane is the request in flight: Ctrl-C ends it as D does.
                if liveCallGeneration != nil, webSocketPane.title == "gRPC", webSocketPane.isConnected {
                    status = StatusMessage("gRPC call cancelled")
                    return webSocketEffects(webSocketPane.handle(.disconnect))
                }
                status = StatusMessage("No request in flight")
                return []
            }
            // A result that still arrives belongs to the cancelled generation and is dropped.
            let cancelled = generation
            generation += 1
            inFlight = nil
            flight = nil
            updateSession(generation: cancelled) { $0.response.phase = .cancelled }
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
        case .problems:
            showProblems(selecting: 0)
            return []
        case .reload:
            status = StatusMessage("Reloading \(collectionPath)…")
            reloading = true
            return [.loadCollection(path: collectionPath)]
        case .discardDraft:
            discardDraft()
            return []
        case .discardAllDrafts:
            askToDiscardAllDrafts()
            return []
        case .help:
            modals.append(.help(scroll: 0))
            return []
        case .quit:
            let unsaved = unsavedNames
            if !unsaved.isEmpty {
                let names = unsaved.count == 1 ? "'\(unsaved[0])'" : "\(unsaved.count) requests (\(unsaved.joined(separator: ", ")))"
                modals.append(.confirm(ConfirmState(message: "Quit and lose unsaved edits to \(names)?", onYes: .quit)))
            } else {
                shouldQuit = true
            }
            return []
        case .suspend:
            shouldSuspend = true
            return []
        case .repaint:
            shouldRepaint = true
            return []
        case .chooseEnvironment:
            modals.append(.palette(PaletteState(filter: "Environment:")))
            return []
        case .chooseTheme:
            modals.append(.palette(PaletteState(filter: "Theme:")))
            return []
        case .cookieJar:
            return [.listCookies(environment: environment)]
        case .toggleSecrets:
            setSecretsShown(!secretsShown)
            return []
        }
    }

    // MARK: - Sending

    /// The open draft as a job for the effect runner, which resolves its variables.
    var sendJob: SendJob {
        var job = SendJob(ref: editor.origin, draft: editor.draft, environment: environment)
        job.answers = promptAnswers
        job.certificatePassphrase = certificatePassphrase
        job.allowedReads = filePermissions.reads
        job.allowedOverwrites = filePermissions.overwrites
        return job
    }

    /// Sends the open request now, or connects when it is a WebSocket request.
    mutating func send() -> [Effect] {
        guard !editor.isEmpty else {
            status = StatusMessage("Open a request first: \(keys.spelling(of: .collection(.open))) on one in the "
                                   + "collection (\(keys.spelling(of: .global(.focus(.collection)))))")
            return []
        }
        editor.editing = false
        if let problem = editor.optionsProblem {
            status = StatusMessage(problem, kind: .error)
            return []
        }
        // `# @note`: the author asked for a confirmation before every send (a production call, say).
        if let note = editor.draft.note, !noteConfirmed {
            let reason = note.isEmpty ? "it is marked @note" : note
            modals.append(.confirm(ConfirmState(message: "Send '\(editor.name)'? \(reason)", onYes: .sendNoted)))
            return []
        }
        // `# @prompt NAME` lines: ask each value before every send, one question at a time.
        if let missing = editor.draft.prompts.first(where: { promptAnswers[$0.name] == nil }) {
            let title = "Value for \(missing.name)" + (missing.description.map { " (\($0))" } ?? "")
            // httpyac's `$value:` default is offered as the answer; a password or kulala `@secret` is typed as dots.
            modals.append(.prompt(PromptState(title: title, text: missing.defaultValue ?? "",
                                              purpose: .variable(name: missing.name), isSecret: missing.isSecret)))
            return []
        }
        defer {
            promptAnswers = [:]
            noteConfirmed = false
        }
        if editor.opensWebSocketPane {
            loadWebSocketPane()
            focus = .webSocket
            if zoomed != nil { zoomed = .webSocket }
            return webSocketConnect(webSocketPane.handle(.connect), job: sendJob)
        }
        beginSend()
        // The new response's latency shows once it is recorded under its own key.
        responseKey = nil
        response.phase = .sending(method: editor.method, url: VariablePreview.resolve(editor.url.text, values: variables))
        // When the response pane is not on screen (one pane at a time, or the Log in its place), show it.
        if zoomed == nil, layout.panes[.response] == nil { focus = .response }
        return [.send(generation: generation, job: sendJob)]
    }

    /// A new generation for the open request's send. One request is in flight at a time (a send cancels
    /// the one before), so another request's unfinished send ends as cancelled.
    private mutating func beginSend() {
        if let previous = inFlight, session.generation != previous {
            updateSession(generation: previous) { $0.response.phase = .cancelled }
        }
        generation += 1
        inFlight = generation
        session.generation = generation
        flight = SendFlight(generation: generation, started: clock(), maxAttempts: SendFlight.maxAttempts(of: editor.draft))
    }

    /// A failure with what the user can do about it: an unknown variable says where values come from.
    func explained(_ failure: SendFailure) -> SendFailure {
        guard failure.kind == .unknownVariable else { return failure }
        let names = collection.environmentNames
        let hint: String = if names.isEmpty {
            "no environment file found: add http-client.env.json beside the file, or @name = value in it"
        } else if let environment {
            "not in environment '\(environment)' (E environments: \(names.joined(separator: ", ")))"
        } else {
            "no environment chosen (E environments: \(names.joined(separator: ", ")))"
        }
        return SendFailure(kind: failure.kind, message: failure.message + ": " + hint,
                           clientCertificate: failure.clientCertificate)
    }

    /// In live mode, a send through the debounce when an edit changed the request. Opening another request
    /// (moving in the tree) is not an edit: it never sends.
    mutating func liveSendIfEdited(since before: RequestEditorState) -> [Effect] {
        // A request marked `# @note` is only sent once the user says so, and a run block only by Send.
        guard live, editor.origin == before.origin, editor.draft != before.draft, !editor.isEmpty,
              !editor.opensWebSocketPane, editor.draft.note == nil,
              editor.draft.runs.isEmpty else { return [] }
        beginSend()
        return [.sendLive(generation: generation, job: sendJob, debounce: liveDebounce)]
    }

    /// Points the WebSocket pane at the open request, variables resolved, when it is not there already.
    mutating func loadWebSocketPane() {
        // The real values go on the wire; the pane masks the private ones as it draws them.
        let values = variables(maskingPrivate: false)
        let name = environment ?? "$shared"
        learnSecrets(Set((collection.privateNames[name] ?? []).compactMap { collection.environments[name]?[$0] }))
        let url = VariablePreview.resolve(editor.url.text, values: values, dynamic: true)
        webSocketJob = SendJob(ref: editor.origin, draft: editor.draft, environment: environment)
        webSocketPane.title = editor.kind == .grpc ? "gRPC" : "WebSocket"
        let subscriptions = editor.draft.subscriptions
        let messages = editor.messages.enumerated().map { index, text in
            WebSocketPaneState.SavedMessage(text: VariablePreview.resolve(text, values: values, dynamic: true),
                                            isSubscription: subscriptions.contains(index))
        }
        guard webSocketPane.url != url || webSocketPane.savedMessages != messages else { return }
        webSocketPane.load(url: url, savedMessages: messages)
    }

    // MARK: - Saving

    mutating func save() -> [Effect] {
        editor.editing = false
        guard let origin = editor.origin else {
            status = StatusMessage("Nothing to save: open a request from the collection first")
            return []
        }
        if let problem = editor.optionsProblem {
            status = StatusMessage(problem + "; nothing saved", kind: .error)
            return []
        }
        guard editor.draft.runs.isEmpty else {
            // Its `run` lines are not fields of the editor; rewriting the block would lose them.
            status = StatusMessage("A run block ('\(editor.draft.runs[0])') is edited in its file; nothing saved",
                                   kind: .error)
            return []
        }
        guard editor.isDirty else {
            status = StatusMessage("No changes to save")
            return []
        }
        return [.save(origin, editor.draft)]
    }
}

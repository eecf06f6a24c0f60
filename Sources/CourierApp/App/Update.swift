import CourierHTTP
import Foundation
import CourierTerminal

/// The only place the explorer's state changes: applies `action` to `state` and returns the work to do.
public func update(_ state: inout AppState, _ action: Action) -> [Effect] {
    let running = state.runningBodyJobs
    let effects = respond(&state, to: action)
    // A body job no pane waits for any more is stopped, whatever let go of it: a newer search, Esc, a new
    // response replacing the pane. The job whose last report this is has ended by itself.
    var stopped = running.subtracting(state.runningBodyJobs)
    if case .bodyJob(let report) = action { stopped.remove(report.generation) }
    return effects + stopped.sorted().map { .cancelBodyJob(generation: $0) }
}

/// `update` without the bookkeeping of body jobs.
private func respond(_ state: inout AppState, to action: Action) -> [Effect] {
    switch action {
    case .input(let event):
        return state.handleInput(event)
    case .tick:
        state.ticks &+= 1
        // The retry and reconnect countdowns read the clock.
        state.now = state.clock()
        state.webSocketPane.tick(now: state.now)
        state.responsePane?.advance()
        return []
    case .collectionLoaded(let collection):
        state.showCollection(collection, complete: true)
        return []
    case .collectionStartLoaded(let collection):
        // A reload that finished first makes this start stale.
        guard case .loading = state.loading else { return [] }
        state.showCollection(collection, complete: false)
        return []
    case .collectionFailed(let message):
        state.loading = .failed(message)
        state.status = StatusMessage(message, kind: .error)
        return []
    case .scriptsRan(let request, let report):
        state.log.recordScripts(report, for: request)
        return []
    case .responsePaneReady(let generation, let pane):
        return state.showResponsePane(pane, generation: generation)
    case .sendFailed(let generation, let failure):
        guard generation == state.generation else { return [] }
        state.inFlight = nil
        let explained = state.explained(failure)
        state.updateSession(generation: generation) { $0.response.phase = .failed(explained) }
        if failure.kind == .transport(.tls) && failure.message.contains("client certificate") {
            // A wrong passphrase is forgotten, so the next send asks again.
            state.certificatePassphrase = nil
        }
        if failure.kind == .certificatePassphrase { state.askForCertificatePassphrase() }
        if case .fileAccess(let refusal) = failure.kind { state.askAboutFile(refusal) }
        return []
    case .secretsLearned(let secrets):
        state.learnSecrets(secrets)
        return []
    case .sendCancelled(let generation):
        guard generation == state.generation else { return [] }
        state.inFlight = nil
        state.updateSession(generation: generation) { $0.response.phase = .cancelled }
        return []
    case .liveSendStarted(let generation, let method, let url):
        guard generation == state.generation else { return [] }
        state.updateSession(generation: generation) { $0.response.phase = .sending(method: method, url: url) }
        return []
    case .clientEvent(let event):
        state.now = state.clock()
        state.log.apply(event, now: state.now)
        return []
    case .servedFromCache(let id, let method, let url, let status, let report):
        state.now = state.clock()
        state.log.addCacheHit(id, method: method, url: url, status: status, report: report, at: state.now)
        return []
    case .compareOpened(let pane):
        var pane = pane
        pane.pageSize = max(1, state.layout.contentHeight(.response) - 6)
        pane.width = max(1, (state.layout.panes[.response]?.width ?? 82) - 2)
        state.comparePane = pane
        state.focus = .response
        return []
    case .compareRevalidated(let revalidation, let failure):
        if let failure { state.comparePane?.fail(failure) } else { state.comparePane?.load(revalidation) }
        return []
    case .webSocketEvents(let batch):
        state.webSocketPane.apply(batch)
        // A TLS failure may be a wrong passphrase: it is forgotten, so the next connect asks again.
        if batch.events.contains(where: { if case .error(let error) = $0 { error.kind == .tls } else { false } }) {
            state.certificatePassphrase = nil
        }
        return []
    case .webSocketResolved(let unverifiedTLS):
        state.webSocketPane.resolved(unverifiedTLS: unverifiedTLS)
        return []
    case .webSocketUnresolved(let failure):
        state.webSocketPane.unresolved(state.explained(failure).message)
        if failure.kind == .certificatePassphrase { state.askForCertificatePassphrase() }
        return []
    case .saveFinished(let ref, let collection):
        state.collection = collection
        state.editor.origin = ref
        state.editor.saved = state.editor.draft
        state.status = StatusMessage("Saved '\(state.editor.name)' to \(ref.file)", kind: .success)
        return []
    case .saveConflict(let conflict):
        state.modals.append(.saveConflict(conflict))
        return []
    case .conflictDiffReady(let lines):
        state.showConflictDiff(lines)
        return []
    case .collectionEditFailed(let message):
        state.status = StatusMessage(message, kind: .error)
        return []
    case .collectionEdited(let collection, let select):
        state.collection = collection
        if let select { state.tree.select(select, in: collection) } else { state.tree.move(0, in: collection) }
        if let origin = state.editor.origin, collection.request(origin) == nil { state.editor.origin = nil }
        // The draft of a deleted request goes with it; the others find their request again when opened.
        state.drafts = state.drafts.filter { ref, draft in
            collection.files.first { $0.path == ref.file }?.requests
                .contains { RequestEditorState(draft: $0, origin: nil).saved == draft.saved } ?? false
        }
        return []
    case .themeLoaded(let theme, let warning):
        state.theme = theme
        state.status = warning.map { StatusMessage($0, kind: .error) } ?? StatusMessage("Theme: \(theme.name)")
        return []
    case .themesListed(let names):
        state.themeNames = names
        return []
    case .curlCommandReady(let command):
        state.status = StatusMessage("Copied the request as a curl command", kind: .success)
        return [.copyToClipboard(command)]
    case .cookiesListed(let listing):
        state.modals.append(.cookies(listing, scroll: 0))
        return []
    case .requestCookies(let request, let lines):
        state.requestCookies = RequestCookies(request: request, lines: lines)
        return []
    case .bodyJob(let report):
        state.applyBodyJob(report)
        return []
    case .notice(let message):
        state.status = message
        return []
    case .historyRecorded(let generation, let requestKey, let latency):
        return state.recordedHistory(generation: generation, requestKey: requestKey, latency: latency)
    case .historyRead(let result):
        guard let request = state.historyPane?.apply(result) else { return [] }
        return state.handleHistoryRequest(request)
    case .previousResponseLoaded(let requestKey, let pane):
        return state.comparePrevious(pane, requestKey: requestKey)
    case .historyOpened(let pane):
        state.openHistory(pane)
        return []
    }
}

extension AppState {
    mutating func handleInput(_ event: InputEvent) -> [Effect] {
        switch event {
        case .resize(let size):
            self.size = size
            // Whatever the terminal did with its old contents, the next frame replaces all of it.
            shouldRepaint = true
            return []
        case .paste(let text):
            return handlePaste(text)
        case .mouse(let mouse):
            return handleMouse(mouse)
        case .key(let key):
            return handleKey(Keymaps.normalized(key))
        }
    }

    mutating func handleKey(_ key: Key) -> [Effect] {
        // Repainting changes nothing but the terminal, so it works over dialogs and while typing too.
        // A repaint key that types (a user's "r") repaints only where keys are commands, below.
        if key.typedText == nil, keys.global.command(for: key) == .repaint {
            shouldRepaint = true
            return []
        }
        if !modals.isEmpty { return handleModalKey(key) }
        status = nil
        if historyPane != nil { return handleHistoryKey(key) }
        let before = editor.draft
        var effects: [Effect]
        if focus == .webSocket, isTyping || paneCommand(for: key) != nil {
            effects = webSocketEffects(webSocketPane.handle(key: key, keymap: keys.webSocket))
        } else if focus == .response, comparePane != nil, let command = keys.compare.command(for: key) {
            effects = run(.compare(command))
        } else if focus == .response, viewerPrompting || paneCommand(for: key) != nil {
            effects = handleResponseKey(key) ?? []
        } else if isTyping {
            if key.typedText == nil, let global = keys.global.command(for: key),
               Keymaps.globalWhileTyping.contains(global) {
                effects = run(.global(global))
            } else if focus == .collection {
                effects = handleFilterKey(key)
            } else {
                effects = handleEditKey(key)
            }
        } else {
            effects = paneCommand(for: key).map { run($0) }
                ?? keys.global.command(for: key).map { run(.global($0)) } ?? []
        }
        effects += liveSendIfEdited(since: before)
        return effects
    }

    /// The focused pane's command for a key.
    func paneCommand(for key: Key) -> AppCommand? {
        switch focus {
        case .collection: keys.collection.command(for: key).map { .collection($0) }
        case .request: keys.request.command(for: key).map { .request($0) }
        case .response:
            (viewerActive ? responsePane?.command(for: key, keymap: keys.responseViewer).map { .responsePane($0) } : nil)
                ?? keys.response.command(for: key).map { .response($0) }
        case .log: keys.log.command(for: key).map { .log($0) }
        case .webSocket: keys.webSocket.command(for: key).map { .webSocket($0) }
        }
    }

    /// Runs any command: from a key, or from the palette.
    mutating func run(_ command: AppCommand) -> [Effect] {
        switch command {
        case .global(let global): return runGlobal(global)
        case .collection(let command): return runCollection(command)
        case .request(let command): return runRequest(command)
        case .response(let command): return runResponse(command)
        case .responsePane(let command): return runResponsePane(command)
        case .compare(let command):
            guard comparePane != nil else { return runResponse(.compare) }
            switch comparePane?.handle(command) {
            case .revalidateNow?: return [.revalidate(sendJob)]
            case .close?: comparePane = nil
            case nil: break
            }
            return []
        case .log(let command):
            log.pageSize = max(1, layout.contentHeight(.log) - 1)
            log.handle(command)
            return []
        case .webSocket(let command): return webSocketEffects(webSocketPane.handle(command))
        case .theme(let name): return [.loadTheme(name: name)]
        case .environment(let name):
            environment = name
            status = StatusMessage("Environment: \(name ?? "none")")
            return []
        }
    }

    mutating func handlePaste(_ text: String) -> [Effect] {
        let before = editor.draft
        if let index = modals.indices.last {
            switch modals[index] {
            case .prompt(var prompt):
                prompt.editor.paste(text)
                modals[index] = .prompt(prompt)
            case .palette(var palette):
                palette.filter.paste(text)
                palette.selection = 0
                modals[index] = .palette(palette)
            default: break
            }
            return []
        }
        if historyPane != nil {
            status = StatusMessage("Close history (Esc) to paste into the request")
            return []
        }
        if focus == .webSocket {
            webSocketPane.paste(text)
            return []
        }
        if focus == .collection && tree.filtering {
            tree.filter.paste(text)
            tree.selection = 0
            return []
        }
        guard focus == .request, !editor.isEmpty else {
            status = StatusMessage("Paste goes into the request editor: focus it "
                + "(\(keys.spelling(of: .global(.focus(.request))))) and press \(keys.spelling(of: .request(.edit)))")
            return []
        }
        editor.editing = true
        editor.editSelected(.paste(text))
        return liveSendIfEdited(since: before)
    }

    mutating func handleMouse(_ mouse: MouseEvent) -> [Effect] {
        // The history pane covers the layout: clicks must not reach the panes under it.
        guard modals.isEmpty, historyPane == nil, let pane = layout.pane(at: mouse.position), let rect = layout.panes[pane] else {
            return []
        }
        switch mouse.kind {
        case .press:
            if focus != pane { _ = runGlobal(.focus(pane)) }
            if pane == .log { log.select(at: mouse.position, area: rect.inset(1)) }
            if pane == .collection {
                let row = mouse.position.y - rect.y - 1 + tree.scroll - (tree.filtering || !tree.filter.text.isEmpty ? 1 : 0)
                let count = tree.rows(collection).count
                if row >= 0 && row < count { tree.selection = row }
            }
            return []
        case .release:
            return []
        case .scrollUp, .scrollDown:
            let delta = mouse.kind == .scrollUp ? -3 : 3
            switch pane {
            case .collection: tree.move(delta, in: collection); tree.scrollToSelection(height: layout.contentHeight(.collection))
            case .response:
                for _ in 0..<3 { _ = runResponsePane(delta < 0 ? .lineUp : .lineDown) }
            case .log: log.scroll(by: delta)
            default: break
            }
            return []
        }
    }
}

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
    // Made here, never while drawing: the hex view's bytes with the secrets known now masked.
    state.maskShownHex()
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
        for pane in state.panes.all { pane.tick(in: &state) }
        return []
    case .collectionLoaded(let collection):
        state.showCollection(collection, complete: true)
        if state.reloading { state.finishReload() }
        return []
    case .collectionStartLoaded(let collection):
        // A reload that finished first makes this start stale.
        guard case .loading = state.loading else { return [] }
        state.showCollection(collection, complete: false)
        return []
    case .collectionFailed(let message):
        state.reloading = false
        state.loading = .failed(message)
        state.status = StatusMessage(message, kind: .error)
        return []
    case .responsePaneReady(let generation, let pane):
        return state.showResponsePane(pane, generation: generation)
    case .sendFailed(let generation, let failure):
        guard generation == state.generation else { return [] }
        state.inFlight = nil
        state.flight = nil
        let explained = state.explained(failure)
        state.updateSession(generation: generation) { $0.response.phase = .failed(explained) }
        if failure.clientCertificate != nil {
            // A wrong passphrase is forgotten, so the next send asks again.
            state.certificatePassphrase = nil
        }
        if failure.kind == .certificatePassphrase { state.askForCertificatePassphrase() }
        if case .fileAccess(let refusal) = failure.kind { state.askAboutFile(refusal) }
        return []
    case .secretsLearned(let secrets):
        state.learnSecrets(secrets)
        return []
    case .sendStarted(let generation, let id):
        if state.flight?.generation == generation { state.flight?.id = id }
        return []
    case .sendProgress(let generation, let progress):
        if state.flight?.generation == generation { state.flight?.apply(progress) }
        return []
    case .sendCancelled(let generation):
        // A streaming GRPC request's send ends as cancelled once its call is in the live pane.
        guard generation == state.generation, generation != state.liveCallGeneration else { return [] }
        state.inFlight = nil
        state.flight = nil
        state.updateSession(generation: generation) { $0.response.phase = .cancelled }
        return []
    case .liveSendStarted(let generation, let method, let url):
        guard generation == state.generation else { return [] }
        // The debounce is over: the send's time starts now.
        if state.flight?.generation == generation { state.flight?.started = state.clock() }
        state.updateSession(generation: generation) { $0.response.phase = .sending(method: method, url: url) }
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
    case .codeReady(let code, let language):
        return state.codeReady(code, language: language)
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
    case .previousResponseLoaded(let requestKey, let pane):
        return state.comparePrevious(pane, requestKey: requestKey)
    default:
        // The send in flight follows its attempts; the Log pane shows them too.
        if case .clientEvent(let event) = action { state.flight?.apply(event, now: state.clock()) }
        // What only one pane cares about: the results of its effects.
        for pane in state.panes.all {
            if let effects = pane.update(action, in: &state) { return effects }
        }
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
        if let overlay = panes.layoutOverlay(in: self) { return overlay.handle(key, in: &self) ?? [] }
        let before = editor
        // An overlay open over the focused tile first, then the tile, then the global keys.
        let shown = panes.shown(on: focus, in: self)
        var effects = shown.handle(key, in: &self)
        if effects == nil, shown.scope != panes.tile(focus).scope { effects = panes.tile(focus).handle(key, in: &self) }
        return (effects ?? keys.global.command(for: key).map { run(.global($0)) } ?? []) + liveSendIfEdited(since: before)
    }

    /// Runs any command: from a key, or from the palette.
    mutating func run(_ command: AppCommand) -> [Effect] {
        switch command {
        case .global(let global): return runGlobal(global)
        case .pane(let command): return panes.pane(for: command.scope)?.run(command, in: &self) ?? []
        case .theme(let name): return [.loadTheme(name: name)]
        case .copyAsCode(let language): return copyAsCode(language)
        case .environment(let name):
            environment = name
            status = StatusMessage("Environment: \(name ?? "none")")
            return []
        }
    }

    mutating func handlePaste(_ text: String) -> [Effect] {
        let before = editor
        if let index = modals.indices.last {
            switch modals[index] {
            case .prompt(var prompt):
                prompt.line.paste(text)
                modals[index] = .prompt(prompt)
            case .palette(var palette):
                palette.filter.paste(text)
                palette.selection = 0
                modals[index] = .palette(palette)
            default: break
            }
            return []
        }
        let pane = panes.layoutOverlay(in: self) ?? panes.tile(focus)
        guard let effects = pane.paste(text, in: &self) else {
            status = StatusMessage("Paste goes into the request editor: focus it "
                + "(\(keys.spelling(of: .global(.focus(.request))))) and press \(keys.spelling(of: .request(.edit))))")
            return []
        }
        return effects + liveSendIfEdited(since: before)
    }

    mutating func handleMouse(_ mouse: MouseEvent) -> [Effect] {
        // An overlay over the layout covers it: clicks must not reach the panes under it.
        guard modals.isEmpty, panes.layoutOverlay(in: self) == nil, let id = layout.pane(at: mouse.position),
              let rect = layout.panes[id] else {
            return []
        }
        switch mouse.kind {
        case .press:
            if focus != id { _ = runGlobal(.focus(id)) }
            panes.tile(id).click(at: mouse.position, area: rect, in: &self)
        case .release:
            break
        case .scrollUp, .scrollDown:
            panes.tile(id).scroll(by: mouse.kind == .scrollUp ? -3 : 3, in: &self)
        }
        return []
    }
}

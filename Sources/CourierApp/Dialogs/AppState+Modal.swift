import CourierHTTP
import CourierTerminal
import Foundation

extension AppState {
    mutating func handleModalKey(_ key: Key) -> [Effect] {
        guard let top = modals.popLast() else { return [] }
        switch top {
        case .help(let scroll):
            switch key {
            case Key(.escape), .char("q"), .char("?"): break
            // Scrolled no further than its last line at the bottom: never into blank space.
            case .char("j"), Key(.down): modals.append(.help(scroll: min(scroll + 1, helpScrollLimit)))
            case .char("k"), Key(.up): modals.append(.help(scroll: max(scroll - 1, 0)))
            case Key(.pageDown), .char(" "): modals.append(.help(scroll: min(scroll + helpPage, helpScrollLimit)))
            case Key(.pageUp): modals.append(.help(scroll: max(scroll - helpPage, 0)))
            default: modals.append(top)
            }
            return []
        case .cookies(let listing, let scroll):
            switch key {
            case Key(.escape), .char("q"), Key(.function(4)): break
            case .char("j"), Key(.down): modals.append(.cookies(listing, scroll: min(scroll + 1, max(0, listing.lines.count - 1))))
            case .char("k"), Key(.up): modals.append(.cookies(listing, scroll: max(scroll - 1, 0)))
            default: modals.append(top)
            }
            return []
        case .confirm(let confirm):
            switch key {
            // Only `y` confirms: these dialogs lose work, and an Enter typed ahead must not answer them.
            case .char("y"), .char("Y"): return perform(confirm.onYes)
            case .char("n"), .char("N"), Key(.escape), .ctrl("c"): return []
            default: modals.append(top); return []
            }
        case .prompt(var prompt):
            if prompt.line.history.isEmpty, let kind = prompt.historyKind { prompt.line.history = promptHistory[kind] }
            switch prompt.line.type(key) {
            case .cancel: return []
            case .accept:
                if let kind = prompt.historyKind { promptHistory.record(prompt.line.text, in: kind) }
                return answer(prompt)
            case .edited, .ignored: break
            }
            modals.append(.prompt(prompt))
            return []
        case .problems(let selection):
            return handleProblemsKey(key, selection: selection)
        case .saveConflict(let conflict):
            return handleSaveConflictKey(key, conflict: conflict)
        case .palette(var palette):
            let matches = HelpCatalog.paletteMatches(self, filter: palette.filter.text)
            switch Keymaps.editing.command(for: key) {
            case .stopEditing?: return []
            case .accept?:
                guard matches.indices.contains(palette.selection), let command = matches[palette.selection].command
                else { return [] }
                if let pane = panes.tile(for: command) { focus = pane; if zoomed != nil { zoomed = pane } }
                let before = editor
                return run(command) + liveSendIfEdited(since: before)
            case .up?: palette.selection = max(0, palette.selection - 1)
            case .down?: palette.selection = min(max(0, matches.count - 1), palette.selection + 1)
            case let command?:
                palette.filter.apply(command)
                palette.selection = 0
            case nil:
                if key == .ctrl("n") { palette.selection = min(max(0, matches.count - 1), palette.selection + 1) }
                else if key == .ctrl("p") { palette.selection = max(0, palette.selection - 1) }
                else if let text = key.typedText { palette.filter.insert(text); palette.selection = 0 }
            }
            modals.append(.palette(palette))
            return []
        }
    }

    /// The help screen's lines: the pane with the keys first (an overlay over the layout or the tile).
    var helpLines: [String] {
        HelpCatalog.lines(keys, first: (panes.layoutOverlay(in: self) ?? panes.shown(on: focus, in: self)).scope,
                          columns: helpWidth - 2)
    }

    /// The help dialog's width: the screen's less a column each side, at most what the widest section needs.
    var helpWidth: Int { max(2, min(112, size.width - 2)) }

    /// The lines the help dialog shows at once (its frame takes two rows, the screen's edge one each side).
    var helpPage: Int { max(1, size.height - 4) }

    /// The furthest help scrolls: its last line at the bottom of the dialog.
    var helpScrollLimit: Int { max(0, helpLines.count - helpPage) }

    mutating func perform(_ action: PendingAction) -> [Effect] {
        switch action {
        case .quit:
            shouldQuit = true
            return []
        case .deleteRequest(let ref):
            return [.collectionEdit(.delete(ref))]
        case .enableLive:
            live = true
            status = StatusMessage("Live mode on for \(editor.method)")
            return []
        case .openRequest(let ref):
            editor.saved = editor.draft
            return open(ref, force: true)
        case .sendNoted:
            noteConfirmed = true
            return send()
        case .discardAllDrafts:
            discardAllDrafts()
            return []
        case .allowFile(let access, let file):
            filePermissions.allow(access, file)
            return send()
        }
    }

    mutating func answer(_ prompt: PromptState) -> [Effect] {
        let text = prompt.line.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        switch prompt.purpose {
        case .newRequest(let file):
            let base = collection.environments.values.contains { $0["base"] != nil } ? "{{base}}/" : "http://127.0.0.1/"
            return [.collectionEdit(.add(file: file, RequestDraft(name: text, method: "GET", url: base)))]
        case .rename(let ref):
            if editor.origin == ref { editor.name = text; editor.saved.name = text }
            renameSession(RequestIdentity(ref, in: collection), to: RequestIdentity(file: ref.file, name: text))
            return [.collectionEdit(.rename(ref, to: text))]
        case .saveResponse:
            guard viewerActive, let body = responsePane?.body.bytes else { return [] }
            return [.writeFile(path: text, contents: body)]
        case .variable(let name):
            promptAnswers[name] = prompt.line.text
            return send()
        case .saveWebSocketMessages:
            return [.writeFile(path: text, contents: webSocketPane.transcript())]
        case .importCurl(let file):
            return importCurl(prompt.line.text, into: file)
        case .certificatePassphrase:
            certificatePassphrase = prompt.line.text
            learnSecrets([prompt.line.text])
            return send()
        }
    }

    /// Asks for the client certificate's passphrase: asked once, then kept for the session, as the IDE keeps
    /// it; the send (or the WebSocket pane's connect) goes again on Enter.
    mutating func askForCertificatePassphrase() {
        modals.append(.prompt(PromptState(title: "Passphrase of the client certificate",
                                          purpose: .certificatePassphrase, isSecret: true)))
    }
}

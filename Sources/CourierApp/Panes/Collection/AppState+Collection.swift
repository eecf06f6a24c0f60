import CourierHTTP
import CourierTerminal

extension AppState {
    mutating func runCollection(_ command: CollectionCommand) -> [Effect] {
        let page = layout.contentHeight(.collection)
        defer { tree.scrollToSelection(height: page - (tree.filter.text.isEmpty && !tree.filtering ? 0 : 1)) }
        switch command {
        case .up: tree.move(-1, in: collection); followSelection()
        case .down: tree.move(1, in: collection); followSelection()
        case .top: tree.move(-tree.selection, in: collection); followSelection()
        case .bottom: tree.move(Int.max / 2, in: collection); followSelection()
        case .pageUp: tree.move(-page, in: collection); followSelection()
        case .pageDown: tree.move(page, in: collection); followSelection()
        case .open:
            guard let row = tree.selectedRow(collection) else { return [] }
            switch row.kind {
            case .group(let key, _): toggleGroup(key)
            case .request(let ref):
                // One key from the tree to a response: open, then send unless a dialog asks first.
                let effects = open(ref)
                return modals.isEmpty ? effects + send() : effects
            case .problem(let index): showProblems(selecting: index)
            }
        case .expand:
            if case .group(let key, _) = tree.selectedRow(collection)?.kind { toggleGroup(key) }
        case .collapse:
            guard let row = tree.selectedRow(collection) else { return [] }
            switch row.kind {
            case .group(let key, _): tree.collapsed.insert(key)
            case .request, .problem:
                // Jump to the group that holds the request.
                let rows = tree.rows(collection)
                if let parent = rows[..<min(tree.selection, rows.count)].lastIndex(where: { $0.depth < row.depth }) {
                    tree.selection = parent
                }
            }
        case .filter:
            // A new filter each time: typing never appends to the last one's text.
            if !tree.filter.text.isEmpty {
                tree.filter = LineEditor()
                if let origin = editor.origin { tree.select(origin, in: collection) }
            }
            tree.filtering = true
        case .clearFilter:
            tree.filter = LineEditor()
            tree.filtering = false
        case .newRequest:
            guard let file = selectedFile else {
                status = StatusMessage("No .http file to add to", kind: .error)
                return []
            }
            modals.append(.prompt(PromptState(title: "Name of the new request", purpose: .newRequest(file: file))))
        case .importCurl:
            guard let file = selectedFile else {
                status = StatusMessage("No .http file to add to", kind: .error)
                return []
            }
            modals.append(.prompt(PromptState(title: "curl command to import (paste it)", purpose: .importCurl(file: file))))
        case .duplicate:
            guard let ref = selectedRequest else { return requestNeeded() }
            return [.collectionEdit(.duplicate(ref))]
        case .rename:
            guard let ref = selectedRequest, let draft = collection.request(ref) else { return requestNeeded() }
            modals.append(.prompt(PromptState(title: "Rename request", text: draft.name, purpose: .rename(ref))))
        case .delete:
            guard let ref = selectedRequest, let draft = collection.request(ref) else { return requestNeeded() }
            modals.append(.confirm(ConfirmState(message: "Delete '\(draft.name)' from \(ref.file)?",
                                                onYes: .deleteRequest(ref))))
        }
        return []
    }

    /// Shows a loaded collection, or (`complete` false) its first requests while the rest loads. The
    /// selected request stays selected when the rest arrives, even if rows were added above it; with
    /// nothing selected, a filter typed meanwhile selects its best match among the new rows.
    mutating func showCollection(_ loaded: Collection, complete: Bool) {
        let firstLoad: Bool
        switch loading {
        case .loaded, .loadingRest: firstLoad = false
        case .loading, .failed: firstLoad = true
        }
        let selected: RequestRef?
        if case .request(let ref) = tree.selectedRow(collection)?.kind { selected = ref } else { selected = nil }
        collection = loaded
        loading = complete ? .loaded : .loadingRest(path: collectionPath)
        if let selected, !firstLoad {
            tree.select(selected, in: loaded)
        } else if !tree.filter.text.isEmpty {
            tree.selection = tree.bestMatchRow(loaded) ?? 0
        }
        tree.move(0, in: loaded)
        if firstLoad { prepareFirstRun() }
        if let environment, loaded.environments[environment] == nil {
            status = StatusMessage("Environment '\(environment)' is not defined", kind: .error)
        }
    }

    /// The first screen after loading: the only environment chosen, and the first request selected and
    /// open, so the first Enter sends it instead of folding the file.
    mutating func prepareFirstRun() {
        if environment == nil, collection.environmentNames.count == 1 { environment = collection.environmentNames.first }
        // Several: the one the files' own rules choose (a local one, the project's default), said on the status line.
        if environment == nil, let chosen = collection.defaultEnvironment, collection.environments[chosen.name] != nil {
            environment = chosen.name
            // The right side already says `env: NAME`: the line says why that one, and how to pick another.
            status = StatusMessage("chose '\(chosen.name)': \(chosen.reason) · E: another")
        }
        let rows = tree.rows(collection)
        guard editor.isEmpty, let index = rows.firstIndex(where: { if case .request = $0.kind { true } else { false } }),
              case .request(let ref) = rows[index].kind, let draft = collection.request(ref) else { return }
        tree.selection = index
        editor = RequestEditorState(draft: draft, origin: ref)
        // The request open at start owns the Response pane's session like any request opened later, so
        // its first answer stays with it when another is opened.
        switchSession(to: RequestIdentity(ref, in: collection))
        if draft.isWebSocket { loadWebSocketPane() }
    }

    /// Opens a saved request in the editor and focuses it. Unsaved edits of the request left are kept as its
    /// draft and come back when it is opened again; only a request that is in no file yet asks first.
    mutating func open(_ ref: RequestRef, force: Bool = false) -> [Effect] {
        guard collection.request(ref) != nil else { return [] }
        if editor.origin != ref, editor.isDirty, editor.origin == nil, !force {
            modals.append(.confirm(ConfirmState(message: "Discard unsaved edits to '\(editor.name)'?",
                                                onYes: .openRequest(ref))))
            return []
        }
        show(ref)
        focus = .request
        if zoomed != nil { zoomed = .request }
        return []
    }

    /// Shows the highlighted request in the Request and Response panes, without sending it and without
    /// moving the focus: moving in the tree is looking. A request in no file yet with edits stays open (Enter
    /// asks before it is discarded).
    mutating func followSelection() {
        guard case .request(let ref)? = tree.selectedRow(collection)?.kind, editor.origin != ref,
              editor.origin != nil || !editor.isDirty else { return }
        show(ref)
    }

    /// Puts the request at `ref` in the editor with its kept draft, and its session in the Response pane.
    private mutating func show(_ ref: RequestRef) {
        guard let draft = collection.request(ref) else { return }
        if editor.origin != ref, editor.isDirty, let origin = editor.origin {
            var left = editor
            left.editing = false
            drafts[origin] = left
        }
        if editor.origin != ref || !editor.isDirty {
            let fresh = RequestEditorState(draft: draft, origin: ref)
            editor = takeDraft(for: ref, savedAs: fresh.saved) ?? fresh
        }
        switchSession(to: RequestIdentity(ref, in: collection))
        // A WebSocket connection under way stays on screen while another request is looked at.
        if draft.isWebSocket, !webSocketPane.isConnected { loadWebSocketPane() }
        if live, editor.kind == .http, !HTTPMethod(editor.method).isIdempotent {
            live = false
            status = StatusMessage("Live mode off: \(editor.method) is not idempotent", kind: .error)
        }
    }

    /// The kept draft of the request at `ref`: the one kept under `ref` when it was made from the request
    /// as it is now, else one made from the same saved request elsewhere in the file (requests added or
    /// deleted before it moved it).
    private mutating func takeDraft(for ref: RequestRef, savedAs saved: RequestDraft) -> RequestEditorState? {
        let key = drafts[ref]?.saved == saved ? ref
            : drafts.first { $0.key.file == ref.file && $0.value.saved == saved }?.key
        guard let key, var kept = drafts.removeValue(forKey: key) else { return nil }
        kept.origin = ref
        return kept
    }

    mutating func handleFilterKey(_ key: Key) -> [Effect] {
        switch Keymaps.editing.command(for: key) {
        case .stopEditing?:
            tree.filter = LineEditor()
            tree.filtering = false
        case .accept?:
            tree.filtering = false
            // Enter in the filter opens the match; sending takes a second Enter, so a typed-ahead
            // Enter never sends a request the user has not seen.
            if case .request(let ref)? = tree.selectedRow(collection)?.kind { return open(ref) }
        case .up?: tree.move(-1, in: collection); followSelection()
        case .down?: tree.move(1, in: collection); followSelection()
        case let command?:
            tree.filter.apply(command)
            selectFirstRequest()
        case nil:
            guard let text = key.typedText else { return [] }
            tree.filter.insert(text)
            selectFirstRequest()
        }
        return []
    }

    /// Selects the best match of the filter, so Enter opens it, and shows it.
    mutating func selectFirstRequest() {
        tree.selection = tree.bestMatchRow(collection) ?? 0
        tree.scroll = 0
        followSelection()
    }

    private mutating func toggleGroup(_ key: String) {
        if tree.collapsed.contains(key) { tree.collapsed.remove(key) } else { tree.collapsed.insert(key) }
    }

    private mutating func requestNeeded() -> [Effect] {
        status = StatusMessage("Select a request first")
        return []
    }

    /// The request under the selection.
    var selectedRequest: RequestRef? {
        if case .request(let ref)? = tree.selectedRow(collection)?.kind { return ref }
        return nil
    }

    /// The file a new request goes into: the selected request's or file's, else the open request's, else the first.
    var selectedFile: String? {
        switch tree.selectedRow(collection)?.kind {
        case .request(let ref)?: return ref.file
        case .group(let key, true)?:
            if let file = collection.files.first(where: { $0.displayPath.joined(separator: "/") == key }) {
                return file.path
            }
        default: break
        }
        return editor.origin?.file ?? collection.files.first?.path
    }
}

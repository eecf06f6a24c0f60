import CourierBody
import CourierHTTP
import CourierHistory
import CourierMessage
import CourierTerminal

/// The history pane in the explorer: opening it, routing keys to it, and acting on what it asks.
extension AppState {
    /// The history key of the open request: its `# @name` and file, else the key of its last recorded response.
    var currentHistoryKey: String? {
        HistoryEntry.requestKey(name: editor.name, file: editor.origin?.file) ?? responseKey
    }

    /// A response was recorded: its latency for the status line, and the open pane reads the store again.
    mutating func recordedHistory(generation: Int, requestKey: String, latency stats: LatencyStats?) -> [Effect] {
        latency[requestKey] = stats
        updateSession(generation: generation) { $0.historyKey = requestKey }
        guard let pane = historyPane else { return [] }
        return [.readHistory(.list(requestKey: pane.requestKey))]
    }

    /// Shows the pane loaded in the background over the layout.
    mutating func openHistory(_ pane: HistoryPaneState) {
        var pane = pane
        pane.timeZone = timeZone
        pane.pageSize = historyPageSize
        historyPane = pane
    }

    /// Rows of the history list: the screen above the status bar, less the border and the column header.
    var historyPageSize: Int { max(1, layout.statusBar.y - 3) }

    /// Keys while the pane is open. Esc with nothing to go back to, or the history key again, closes it;
    /// help, the palette, quit and suspend still work; everything else is the pane's.
    mutating func handleHistoryKey(_ key: Key) -> [Effect] {
        guard var pane = historyPane else { return [] }
        let searching: Bool = if case .searching = pane.mode { true } else { false }
        if !searching {
            if key == Key(.escape) && pane.isAtRoot {
                historyPane = nil
                return []
            }
            if let global = keys.global.command(for: key), keys.history.command(for: key) == nil {
                switch global {
                case .history, .historyAll:
                    historyPane = nil
                    return []
                case .help, .palette, .quit, .suspend:
                    return runGlobal(global)
                default:
                    return []
                }
            }
        }
        pane.pageSize = historyPageSize
        let request = pane.handle(key: key, keymap: keys.history)
        historyPane = pane
        return request.map { handleHistoryRequest($0) } ?? []
    }

    /// Acts on what the pane asked.
    mutating func handleHistoryRequest(_ request: HistoryPaneRequest) -> [Effect] {
        switch request {
        case .restore(let entry):
            restore(entry)
        case .message(let text):
            status = StatusMessage(text)
        case .diff:
            break
        case .read(let read):
            return [.readHistory(read)]
        }
        return []
    }

    /// Puts an entry's method, URL and headers into the editor and focuses it: as written (`{{base}}/users`)
    /// when the entry kept the template, else as sent. A header history kept redacted (`REDACTED`) keeps the
    /// editor's own value, or is left out when the editor has none: the mask is never sent as a value.
    mutating func restore(_ entry: HistoryEntry) {
        // A kept connection's messages are no request body: its request is the collection's to open.
        guard !["WEBSOCKET", "GRPC"].contains(entry.request.method) else {
            status = StatusMessage("A kept \(entry.request.method == "GRPC" ? "gRPC call" : "WebSocket connection") is not "
                                   + "restored into the editor: open '\(entry.request.name ?? entry.request.url)' in the collection")
            return
        }
        let current = editor.draft
        let template = entry.request.template
        var fields: [HTTPHeaders.Field] = []
        for header in template?.headers ?? entry.request.headers {
            if header.value.contains(Redactor.mask) {
                if let kept = current.headers.fields.first(where: { $0.name.caseInsensitiveEquals(header.name) }) {
                    fields.append(kept)
                }
            } else {
                fields.append(header)
            }
        }
        var draft = current
        draft.method = entry.request.method
        draft.url = template?.url ?? entry.request.url
        draft.headers = HTTPHeaders(fields)
        if let body = template?.body, !body.contains(Redactor.mask) { draft.body = body }
        let saved = editor.saved
        editor = RequestEditorState(draft: draft, origin: editor.origin)
        editor.saved = saved
        historyPane = nil
        focus = .request
        if zoomed != nil { zoomed = .request }
        status = StatusMessage("Restored \(draft.method) \(draft.url) from history", kind: .success)
    }
}

extension HistoryPaneState {
    /// Whether Esc has nothing left to go back to: the plain list, no search, nothing marked.
    var isAtRoot: Bool {
        guard case .list = mode else { return false }
        return query.isEmpty && marked.isEmpty
    }
}

extension AppState {
    /// The recent latency of the request whose response is shown, once that response is in history.
    public var shownLatency: LatencyStats? {
        guard case .received = response.phase, let responseKey else { return nil }
        return latency[responseKey]
    }
}

import CourierBody
import CourierHistory
import CourierSecurity
import CourierTerminal
import Foundation

/// The history pane: every kept response, newest first, globally or for one request; a search box;
/// one entry shown with its redacted headers and body; and the diff of two entries. A value: `handle`
/// and `apply` are its only changes. Keys never read the store: they ask for a `HistoryPaneRead`, which the
/// app performs off the loop thread and hands back to `apply`.
public struct HistoryPaneState: Sendable {
    /// What the pane shows.
    public enum Mode: Sendable {
        case list
        /// The list with the search box taking keys.
        case searching
        /// One entry: its lines (status, headers, body preview) and scroll.
        case entry(HistoryEntry, lines: [String], scroll: TextViewState)
        case diff(HistoryDiffState)
    }

    public let store: HistoryStore
    /// Only this request's entries are listed (its `# @name`, or method and URL), when set.
    public private(set) var requestKey: String?
    /// Every loaded entry, newest first (before the search).
    public private(set) var entries: [HistoryEntry] = []
    public private(set) var mode: Mode = .list
    public private(set) var query = LineEditor()
    /// Entries whose stored body matched the query when it was last committed with Enter.
    private var bodyMatches: Set<String> = []
    public private(set) var list = ListState()
    /// Entries marked with space for a diff, in marking order (at most two).
    public private(set) var marked: [String] = []
    /// Clock times are shown in this zone.
    public var timeZone: TimeZone
    /// Rows a page key moves, and the height scrolling keeps full; the app sets it from the pane's height.
    public var pageSize = 10

    public init(store: HistoryStore, requestKey: String? = nil, timeZone: TimeZone = .autoupdatingCurrent) {
        self.store = store
        self.requestKey = requestKey
        self.timeZone = timeZone
    }

    /// The entries the search lets through, newest first.
    public var visible: [HistoryEntry] {
        let needle = query.text.lowercased()
        guard !needle.isEmpty else { return entries }
        return entries.filter { entry in
            if bodyMatches.contains(entry.id) { return true }
            let fields = [entry.request.method, entry.request.url, entry.request.name ?? "", entry.error ?? "",
                          entry.cacheDecision ?? "", entry.response.map { String($0.status) } ?? ""]
            return fields.contains { $0.lowercased().contains(needle) }
        }
    }

    /// The entry under the selection.
    public var selected: HistoryEntry? {
        let visible = visible
        guard let index = list.selected, index < visible.count else { return nil }
        return visible[index]
    }

    /// The title the app puts on the pane's border.
    public var title: String {
        var parts = ["History"]
        if let requestKey { parts.append(requestKey) }
        if !query.isEmpty { parts.append("/\(query.text)") }
        switch mode {
        case .entry: parts.append("entry")
        case .diff(let diff): parts.append(diff.layout == .unified ? "diff" : "diff side by side")
        case .list, .searching: break
        }
        return parts.joined(separator: " · ")
    }

    /// Reads the list from the store now, keeping the selected entry: for the effect that opens the pane,
    /// which runs off the loop thread. Keys ask for `.read(.list)` instead.
    @discardableResult
    public mutating func reload() -> HistoryPaneRequest? {
        apply(HistoryPaneRead.list(requestKey: requestKey).perform(with: store))
    }

    /// Lists only `requestKey`'s entries (nil: every request), read from the store now (see `reload`).
    @discardableResult
    public mutating func show(requestKey: String?) -> HistoryPaneRequest? {
        apply(HistoryPaneRead.list(requestKey: requestKey).perform(with: store))
    }

    /// Takes what a read the pane asked for found; returns what the app must do next, if anything.
    public mutating func apply(_ result: HistoryPaneRead.Result) -> HistoryPaneRequest? {
        switch result {
        case .listed(let requestKey, let outcome):
            self.requestKey = requestKey
            let keep = selected?.id
            switch outcome {
            case .success(let read): entries = read
            case .failure(let error):
                entries = []
                list.select(nil, count: 0)
                return .message("history: \(error)")
            }
            let ids = Set(entries.map(\.id))
            marked.removeAll { !ids.contains($0) }
            reselect(keep)
        case .entry(let entry, let body):
            // Only while that entry is still shown: the user may have gone back before the body was read.
            guard case .entry(let shown, _, let scroll) = mode, shown.id == entry.id else { return nil }
            mode = .entry(entry, lines: entryLines(entry, body: body), scroll: scroll)
        case .diff(let older, let olderBody, let newer, let newerBody):
            mode = .diff(HistoryDiffState(older: older, olderBody: olderBody, newer: newer, newerBody: newerBody,
                                          timeZone: timeZone))
            return .diff(older: older, newer: newer)
        case .noPrevious(let entry):
            return .message("no earlier response of \(entry.requestKey) to compare with")
        case .bodyMatches(let query, let ids):
            guard query == self.query.text else { return nil }
            let keep = selected?.id
            bodyMatches = ids
            reselect(keep)
        }
        return nil
    }

    // MARK: Keys

    /// Takes a key: into the search box while searching, else through the keymap.
    public mutating func handle(key: Key, keymap: [KeyBinding<HistoryPaneCommand>] = Self.keymap)
        -> HistoryPaneRequest? {
        if case .searching = mode {
            switch key.code {
            case .enter:
                return commitSearch()
            case .escape:
                query = LineEditor()
                bodyMatches = []
                mode = .list
                reselect(nil)
            default:
                let keep = selected?.id
                query.handle(key)
                reselect(keep)
            }
            return nil
        }
        guard let command: HistoryPaneCommand = keymap.command(for: key) else { return nil }
        return handle(command)
    }

    /// Applies a key's command.
    public mutating func handle(_ command: HistoryPaneCommand) -> HistoryPaneRequest? {
        switch mode {
        case .entry(let entry, let lines, var scroll):
            switch command {
            case .back, .open: mode = .list
            case .restore: return .restore(entry)
            case .diff: return .read(.previous(of: entry))
            default:
                scroll.scroll(by: scrollDelta(command, count: lines.count), lineCount: lines.count, height: pageSize)
                mode = .entry(entry, lines: lines, scroll: scroll)
            }
            return nil
        case .diff(var diff):
            switch command {
            case .back, .open: mode = .list
            case .toggleLayout: diff.toggleLayout(); mode = .diff(diff)
            case .restore: return .restore(diff.newer)
            default:
                diff.scroll(by: scrollDelta(command, count: Int.max / 4), height: pageSize)
                mode = .diff(diff)
            }
            return nil
        case .list, .searching:
            return handleList(command)
        }
    }

    private mutating func handleList(_ command: HistoryPaneCommand) -> HistoryPaneRequest? {
        let count = visible.count
        switch command {
        case .down: move(by: 1, count: count)
        case .up: move(by: -1, count: count)
        case .pageDown: move(by: pageSize, count: count)
        case .pageUp: move(by: -pageSize, count: count)
        case .top: list.first(count: count)
        case .bottom: list.last(count: count)
        case .open:
            guard let entry = selected else { return nil }
            mode = .entry(entry, lines: entryLines(entry, body: nil), scroll: TextViewState())
            return .read(.entry(entry))
        case .back:
            if !query.isEmpty {
                let keep = selected?.id
                query = LineEditor()
                bodyMatches = []
                reselect(keep)
            } else {
                marked = []
            }
        case .search:
            mode = .searching
        case .restore:
            return selected.map { .restore($0) }
        case .mark:
            guard let id = selected?.id else { return nil }
            if let index = marked.firstIndex(of: id) { marked.remove(at: index) } else { marked.append(id) }
            if marked.count > 2 { marked.removeFirst(marked.count - 2) }
            move(by: 1, count: count)
        case .diff:
            // Two marked entries, or the one marked and the selected one.
            var ids = marked
            if ids.count == 1, let id = selected?.id, id != ids[0] { ids.append(id) }
            if ids.count == 2 {
                let pair = entries.filter { ids.contains($0.id) }.sorted { $0.date < $1.date }
                guard pair.count == 2 else { return .message("the marked entries are gone") }
                return .read(.diff(older: pair[0], newer: pair[1]))
            }
            guard let entry = selected else { return nil }
            return .read(.previous(of: entry))
        case .toggleLayout: break
        case .toggleScope:
            let key = requestKey == nil ? selected?.requestKey : nil
            if requestKey == nil && key == nil { return nil }
            return .read(.list(requestKey: key))
        case .reload:
            return .read(.list(requestKey: requestKey))
        }
        return nil
    }

    // MARK: Internals

    /// Enter in the search box: keeps the query, and asks for the entries whose stored body contains it.
    private mutating func commitSearch() -> HistoryPaneRequest? {
        mode = .list
        guard !query.isEmpty else {
            bodyMatches = []
            reselect(selected?.id)
            return nil
        }
        return .read(.searchBodies(query.text))
    }

    private func scrollDelta(_ command: HistoryPaneCommand, count: Int) -> Int {
        switch command {
        case .down: 1
        case .up: -1
        case .pageDown: pageSize
        case .pageUp: -pageSize
        case .top: -count
        case .bottom: count
        default: 0
        }
    }

    private mutating func move(by delta: Int, count: Int) {
        list.move(by: delta, count: count)
        list.scrollToSelection(height: max(1, pageSize), count: count)
    }

    /// Keeps `id` selected when it is still visible, else the newest entry.
    private mutating func reselect(_ id: String?) {
        let visible = visible
        list.select(id.flatMap { id in visible.firstIndex { $0.id == id } } ?? 0, count: visible.count)
        list.offset = 0
    }

    /// The text of the entry view: request line, status and timing, headers (redacted), body preview (a
    /// placeholder until the body has been read).
    private func entryLines(_ entry: HistoryEntry, body stored: Data?) -> [String] {
        let redactor = Redactor()
        var lines = ["\(entry.request.method) \(entry.request.url)",
                     "\(HistoryPaneFormat.status(entry)) · \(HistoryPaneFormat.duration(entry)) · \(HistoryPaneFormat.size(entry))"
                        + (entry.cacheDecision.map { " · cache \($0)" } ?? ""),
                     HistoryPaneFormat.clock(entry.date, zone: timeZone), ""]
        if !entry.request.headers.isEmpty {
            lines.append("Request headers")
            lines += redactor.headers(entry.request.headers).map { "  \($0.name): \($0.value)" }
        }
        if let response = entry.response {
            lines.append("Response headers")
            lines += redactor.headers(response.headers).map { "  \($0.name): \($0.value)" }
            if let note = response.bodyNote { lines.append("(\(note))") }
            lines.append("")
            guard let stored else { return lines + ["(reading the body…)"] }
            let body = HistoryBodyLines.lines(stored, limit: Self.previewLines)
            lines += body.lines.isEmpty ? ["(empty body)"] : body.lines
            if body.truncated { lines.append("… preview ends after \(Self.previewLines) lines") }
        }
        return lines
    }

    /// Body lines the entry view shows.
    static let previewLines = 2_000
}

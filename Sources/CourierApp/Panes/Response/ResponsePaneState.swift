import CourierBody
import CourierSecurity
import CourierTerminal
import Foundation

/// The response viewer: a body of any size read through a `BodyDocument` (pretty JSON, raw text, hex,
/// events), with search, folds, a JSONPath filter and a diff against the previous response. A value;
/// `handle` is the only place it changes, and `ResponsePaneView` draws only the visible lines.
public struct ResponsePaneState: Sendable {
    /// Which part of the response is shown.
    public enum Tab: Sendable, Hashable { case body, headers }

    public var info: ResponsePaneInfo
    public let body: BodyDocument
    public let media: MediaKind
    /// The lazily pretty-printed body, when it is JSON.
    public private(set) var pretty: PrettyJSONDocument?
    public var tab: Tab = .body
    /// Pretty JSON (when the body is JSON) or the raw text.
    public var showsPretty = true
    /// Hex view (on by default for binary bodies).
    public var showsHex: Bool
    public var wrap = false
    /// How "No search" names the search key; the app sets the user's before each command.
    public var searchKey = "/"
    /// The current line (in the active source's lines); the view follows it.
    public var cursor = 0
    /// The first visible row (in visible, unfolded rows).
    public var scroll = 0
    /// First visible column when lines are not wrapped.
    public var column = 0
    /// Rows of body the last render had, for paging; the app may set it from the layout.
    public var pageSize = 20
    /// Folded line ranges of the pretty body, sorted and disjoint.
    public internal(set) var folds: [ClosedRange<Int>] = []
    public var prompt: ResponsePanePrompt?
    /// The search on screen; its hits arrive from a body job as actions.
    public internal(set) var search: ResponseSearch?
    public internal(set) var currentHit: SearchHit?
    /// The JSONPath filter's result, shown instead of the body until cleared.
    public internal(set) var filter: (expression: String, document: PrettyJSONDocument, matches: Int)?
    /// The JSONPath filter running in a body job; its result replaces `filter` when it finishes.
    public internal(set) var filtering: ResponseFiltering?
    /// The body job building the line index, until it reports the index finished.
    public internal(set) var indexing: Int?
    /// The body job diffing this response against the previous one, until it reports the diff.
    public internal(set) var comparing: Int?
    /// The diff against the previous response, shown instead of the body until cleared.
    public private(set) var diff: StaticLines?
    /// The event view of an SSE or NDJSON body, rebuilt by `bodyDidGrow()` while it streams in.
    public private(set) var events: StaticLines?
    /// Set while the body is still arriving.
    public var streaming: ResponseStreamProgress?
    /// A one-line message (an invalid filter, a failed search, a copied path).
    public var message: String?
    /// A jump asked for before the index reached its line: where to move once it does (`Int.max`: the end).
    public private(set) var pendingLine: Int?
    /// The body job indexing the lines on screen for `pendingLine`, when the pane's index job does not.
    public internal(set) var jumpIndexing: Int?
    /// The hex view's bytes with known secrets masked over the whole body (a secret spans several hex rows),
    /// made by `maskHex(with:)` in `update` when the secrets, the body or the view change; never while drawing.
    public private(set) var maskedHex: MaskedHexBytes?

    /// A pane over `body`; JSON is detected from the Content-Type and the first bytes.
    public init(info: ResponsePaneInfo, body: BodyDocument) {
        self.info = info
        self.body = body
        let head = body.withBytes { Data($0.prefix(4_096)) }
        media = MediaKind.detect(contentType: info.contentType, prefix: head)
        pretty = media.category == .json ? PrettyJSONDocument(data: body.bytes) : nil
        showsHex = media.isBinary
        if media.category == .eventStream || media.category == .ndjson { events = ResponseEventLines.make(body, media) }
    }

    /// Call when more of a streaming body has arrived: the event view is rebuilt and the index extended.
    public mutating func bodyDidGrow() {
        if events != nil { events = ResponseEventLines.make(body, media) }
        // The pretty view is lazy, so re-creating it over the longer body costs only what is on screen.
        if pretty != nil { pretty = PrettyJSONDocument(data: body.bytes) }
        _ = body.indexMore()
    }

    /// The lines on screen now: filter, diff, headers, hex, events, pretty or raw, in that order of precedence.
    /// Known secrets are masked by `lines(masker:)`, except in the hex view's bytes (`maskedHex`).
    public var source: any LineSource {
        if let filter { return filter.document }
        if let diff { return diff }
        if tab == .headers { return StaticLines(info.headers.map { "\($0.name): \($0.value)" }) }
        if showsHex { return HexDump(data: maskedHex?.bytes ?? body.bytes) }
        if showsPretty, let pretty { return pretty }
        if showsPretty, let events { return events }
        return body
    }

    /// The lines as drawn and searched: `source` with `masker`'s secret values masked line by line.
    public func lines(masker: SecretMasker?) -> any LineSource {
        guard let masker, !masker.isEmpty else { return source }
        return MaskedLines(source, masker: masker)
    }

    /// Makes the hex view's masked bytes for `masker` when the hex view shows and they are not made yet for
    /// this body and these secrets; drops them when not needed. The app calls it after every change.
    public mutating func maskHex(with masker: SecretMasker?) {
        guard showsHex, let masker, !masker.isEmpty, body.byteCount <= MaskedHexBytes.maxBytes else {
            if maskedHex != nil { maskedHex = nil }
            return
        }
        if let made = maskedHex, made.masker == masker, made.size == body.byteCount { return }
        maskedHex = MaskedHexBytes(body: body, masker: masker)
    }

    /// Whether folds apply (they belong to the pretty body only).
    var foldsApply: Bool { filter == nil && diff == nil && tab == .body && !showsHex && showsPretty && pretty != nil }

    // MARK: Commands

    /// Applies a command; returns what the app must do, if anything.
    public mutating func handle(_ command: ResponsePaneCommand) -> ResponsePaneEffect? {
        message = nil
        // Any key replaces a jump still waiting for the index (a newer jump asks again below).
        pendingLine = nil
        jumpIndexing = nil
        switch command {
        case .lineDown: moveCursor(to: visibleLine(after: cursor))
        case .lineUp: moveCursor(to: visibleLine(before: cursor))
        case .pageDown: moveCursor(to: line(forRow: row(forLine: cursor) + max(1, pageSize - 1)))
        case .pageUp: moveCursor(to: line(forRow: max(0, row(forLine: cursor) - max(1, pageSize - 1))))
        case .top: moveCursor(to: 0)
        case .end: return jump(to: Int.max)
        case .scrollLeft: column = max(0, column - 8)
        case .scrollRight: column += 8
        case .toggleHeaders: switchSource { $0.tab = $0.tab == .body ? .headers : .body }
        case .togglePretty: switchSource { $0.showsPretty.toggle() }
        case .toggleHex: switchSource { $0.showsHex.toggle() }
        case .toggleWrap: wrap.toggle(); column = 0
        case .toggleFold: toggleFold()
        // Every prompt starts empty: ↑ brings back what was given before.
        case .beginSearch: prompt = ResponsePanePrompt(kind: .search)
        case .beginFilter:
            guard pretty != nil else { message = "The filter needs a JSON body"; return nil }
            prompt = ResponsePanePrompt(kind: .filter)
        case .beginGoToLine: prompt = ResponsePanePrompt(kind: .goToLine)
        case .nextHit: jumpToHit(forward: true)
        case .previousHit: jumpToHit(forward: false)
        case .input(let character): prompt?.line.insert(String(character))
        case .edit(let command): prompt?.line.apply(command)
        case .submit: return submitPrompt()
        case .clear: clear()
        case .copyPath:
            guard foldsApply, let path = pretty?.path(atLine: cursor) else {
                message = "No JSON value under the cursor"
                return nil
            }
            message = "Copied \(path)"
            return .copy(path)
        case .toggleDiff:
            if diff != nil { switchSource { $0.diff = nil }; return nil }
            return .loadPrevious
        case .saveBody: return .saveBody
        }
        return nil
    }

    /// Whether background work (indexing, a search, a filter) may still change what the pane shows, so the
    /// run loop keeps redrawing until it is done.
    public var isWorking: Bool {
        !source.isComplete || (search.map { !$0.isFinished } ?? false) || filtering != nil || comparing != nil
    }

    /// Jumps to line `target` (`Int.max`: the last line). The loop thread never indexes for it: while the
    /// index has not reached the line, the view moves to the last line known so far, says it is indexing,
    /// and finishes the jump when an index job reports that it got there (the app starts one with
    /// `beginJumpIndexing` unless the pane's own index job already covers the lines on screen).
    mutating func jump(to target: Int) -> ResponsePaneEffect? {
        let source = self.source
        let known = source.lineCount
        guard !source.isComplete, known <= target else {
            moveCursor(to: min(target, max(0, known - 1)))
            return nil
        }
        // Only to a line already indexed: moving past the frontier would index a batch here.
        if known > 0 { moveCursor(to: known - 1) }
        pendingLine = target
        message = Self.indexingMessage(known: known, target: target)
        return coversByIndexJob(source) ? nil : .indexForJump
    }

    /// What the bottom line says while a jump waits for the index.
    static func indexingMessage(known: Int, target: Int) -> String {
        let destination = target == Int.max ? "the end" : "line \(target + 1)"
        return "Indexing… (\(known) lines so far): the view moves to \(destination) when it gets there"
    }

    /// Called on every tick and index report: once the index reaches it, finishes a jump asked for while the
    /// index was still being built; until then, says how far the index got.
    public mutating func advance() {
        guard let target = pendingLine else { return }
        let known = source.lineCount
        guard source.isComplete || known > target else {
            message = Self.indexingMessage(known: known, target: target)
            return
        }
        pendingLine = nil
        jumpIndexing = nil
        message = nil
        moveCursor(to: min(target, max(0, known - 1)))
    }

    /// Shows the diff of this response against `previous` (status, headers, pretty body lines), worked out
    /// now; the app works it out in a body job instead (`beginCompare`).
    public mutating func compare(with previous: ResponsePaneState?) {
        guard let previous else { message = "No previous response of this request to compare with"; return }
        showDiff(ResponseDiff.lines(old: previous, new: self))
    }

    /// Shows a diff worked out for this response.
    mutating func showDiff(_ lines: StaticLines) {
        comparing = nil
        message = nil
        switchSource { $0.diff = lines }
    }

    mutating func switchSource(_ change: (inout ResponsePaneState) -> Void) {
        change(&self)
        search = nil
        currentHit = nil
        cursor = 0
        scroll = 0
        column = 0
    }

    /// Drops the search and its hits (the text they were found in changed).
    mutating func clearSearch() {
        search = nil
        currentHit = nil
    }

    private mutating func clear() {
        if prompt != nil { prompt = nil; return }
        if cancelFilter() { return }
        if comparing != nil { comparing = nil; message = nil; return }
        if filter != nil { switchSource { $0.filter = nil }; return }
        if diff != nil { switchSource { $0.diff = nil }; return }
        search = nil
        currentHit = nil
    }

    private mutating func submitPrompt() -> ResponsePaneEffect? {
        guard let prompt else { return nil }
        self.prompt = nil
        switch prompt.kind {
        case .goToLine:
            guard let number = Int(prompt.text.trimmingCharacters(in: .whitespaces)), number > 0 else {
                message = "Not a line number: \(prompt.text)"
                return nil
            }
            return jump(to: number - 1)
        case .search:
            guard !prompt.text.isEmpty else { return nil }
            let isRegex = prompt.text.count > 2 && prompt.text.hasPrefix("/") && prompt.text.hasSuffix("/")
            let pattern = isRegex ? String(prompt.text.dropFirst().dropLast()) : prompt.text
            do {
                // Only checked here: the app gives the search a generation and starts its job (`begin`).
                return .search(try BodySearch(SearchQuery(pattern, caseInsensitive: pattern.lowercased() == pattern,
                                                          isRegex: isRegex)))
            } catch {
                message = "\(error)"
            }
        case .filter:
            return startFilter(prompt.text)
        }
        return nil
    }

    // MARK: Search

    /// Moves to the next or previous hit from the cursor; hits keep arriving while the search runs.
    mutating func jumpToHit(forward: Bool) {
        guard let search else { message = "No search: press \(searchKey) to search"; return }
        let from = currentHit ?? SearchHit(line: cursor, columns: forward ? -1 ..< -1 : Int.max ..< Int.max)
        guard let hit = forward ? search.hits.next(after: from) : search.hits.previous(before: from) else {
            message = search.isFinished ? "No matches for \(search.query.pattern)" : "Searching…"
            return
        }
        currentHit = hit
        unfold(containing: hit.line)
        moveCursor(to: hit.line)
        if !wrap, let _ = Optional(hit) {
            // Bring the match into view horizontally.
            if hit.columns.lowerBound < column || hit.columns.upperBound > column + 60 { column = max(0, hit.columns.lowerBound - 8) }
        }
    }
}

import CourierMessage
import CourierSecurity
import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation

/// The log pane: one row per attempt from the client core's events, grouped under its request, with
/// a retry line under an attempt the policy retried and a "not retried" line, with the reason, under a
/// failure it handed back. A value: `apply` and `handle` are its only
/// changes, and rendering reads it.
public struct LogPaneState: Sendable {
    /// The most attempts kept; the oldest go first.
    public var maxAttempts: Int
    /// Attempts, oldest first.
    public internal(set) var attempts: [LogAttempt] = []
    /// The live pane's WebSocket connection, whose connects show as attempts (`LogPaneState+Streams`).
    var stream: StreamConnection?
    public private(set) var errorsOnly = false
    /// Only this request's attempts are shown, when set.
    public private(set) var onlyRequest: RequestID?
    /// Selection and scroll over the visible rows.
    public private(set) var list = ListState()
    /// New rows move the selection to the newest while true; moving up turns it off.
    public private(set) var follow = true
    /// The attempt whose detail is open.
    public private(set) var detail: LogAttempt.Key?
    public private(set) var detailScroll = TextViewState()
    /// Clock times are shown in this zone.
    public var timeZone: TimeZone
    /// Rows a page key moves; the app sets it from the pane's height.
    public var pageSize = 10
    /// Cache decisions that arrived before their request's first attempt.
    private var pendingCache: [RequestID: CacheReport] = [:]
    /// Auth events of requests whose attempt has not started (the token comes first).
    private var pendingAuth: [RequestID: [String]] = [:]

    public init(maxAttempts: Int = 500, timeZone: TimeZone = .autoupdatingCurrent) {
        self.maxAttempts = max(1, maxAttempts)
        self.timeZone = timeZone
    }

    /// One line of the pane: an attempt, the retry scheduled after it, or why none was.
    public struct Row: Sendable, Hashable {
        public enum Kind: Sendable, Hashable { case attempt, retry, declined, scripts }
        public var index: Int
        public var kind: Kind
    }

    /// The rows the filters let through: requests in the order they started, each request's attempts
    /// together under it even when requests ran at the same time.
    public var rows: [Row] {
        var order: [RequestID] = []
        var groups: [RequestID: [Int]] = [:]
        for (index, attempt) in attempts.enumerated() {
            if errorsOnly && !attempt.isError { continue }
            if let onlyRequest, attempt.key.request != onlyRequest { continue }
            if groups[attempt.key.request] == nil { order.append(attempt.key.request) }
            groups[attempt.key.request, default: []].append(index)
        }
        var rows: [Row] = []
        for request in order {
            for index in groups[request] ?? [] {
                rows.append(Row(index: index, kind: .attempt))
                if attempts[index].retry != nil { rows.append(Row(index: index, kind: .retry)) }
                if attempts[index].declined != nil { rows.append(Row(index: index, kind: .declined)) }
                if attempts[index].scripts != nil { rows.append(Row(index: index, kind: .scripts)) }
            }
        }
        return rows
    }

    /// The attempt under the selection.
    public var selectedAttempt: LogAttempt? {
        let rows = rows
        guard let selected = list.selected, selected < rows.count else { return nil }
        return attempts[rows[selected].index]
    }

    /// Puts what a request's scripts did on its last attempt: a row under it ("2 tests passed, 1 failed")
    /// and the tests in its detail.
    public mutating func recordScripts(_ report: ScriptReport, for request: RequestID) {
        guard let index = attempts.lastIndex(where: { $0.key.request == request }) else { return }
        attempts[index].scripts = report
    }

    /// The title the app puts on the pane's border.
    public var title: String {
        var parts = ["Log"]
        if errorsOnly { parts.append("errors only") }
        if let onlyRequest { parts.append("request \(onlyRequest)") }
        if !follow { parts.append("paused") }
        return parts.joined(separator: " · ")
    }

    /// What the row marks mean, for those the log holds: `↺ reused connection · ↻ retry`.
    public var legend: String {
        var parts: [String] = []
        if attempts.contains(where: { $0.timing?.reusedConnection == true }) { parts.append("↺ reused connection") }
        if attempts.contains(where: { $0.retry != nil }) { parts.append("↻ retry") }
        return parts.joined(separator: " · ")
    }

    /// When the next frame must be drawn for a countdown to move (nil: nothing is counting down).
    public func nextTick(after now: Date) -> Date? {
        let counting = attempts.contains { attempt in
            guard let retry = attempt.retry, retry.status == .waiting else { return false }
            return retry.remaining(at: now) > .zero
        }
        return counting ? now.addingTimeInterval(0.1) : nil
    }

    // MARK: Events

    /// Folds one event from the client core into the log.
    public mutating func apply(_ event: ClientEvent, now: Date) {
        switch event {
        case .attemptStarted(let id, let attempt, let method, let url, let headers, let at):
            for index in attempts.indices where attempts[index].key.request == id
                && attempts[index].retry?.status == .waiting {
                attempts[index].retry?.status = .done
            }
            var entry = LogAttempt(key: LogAttempt.Key(request: id, attempt: attempt), method: method.rawValue,
                                   url: url, requestHeaders: headers.redacted(), started: at)
            entry.cache = pendingCache.removeValue(forKey: id)
            entry.auth = pendingAuth.removeValue(forKey: id) ?? []
            attempts.append(entry)
            trim()
        case .attemptFinished(let id, let attempt, let outcome, let timing):
            guard let index = lastIndex(id, attempt: attempt) else { return }
            attempts[index].timing = timing
            switch outcome {
            case .response(let status, let headers):
                attempts[index].outcome = .response(status: status, headers: headers.redacted())
            case .failure(let error):
                if case .cancelled = error {
                    if !attempts[index].isCancelled { attempts[index].outcome = .cancelled(superseded: false) }
                } else {
                    attempts[index].outcome = .failure(kind: error.kind, message: error.description)
                }
            }
        case .retryScheduled(let id, let attempt, let reason, let delay):
            guard let index = lastIndex(id, attempt: attempt) else { return }
            attempts[index].retry = LogAttempt.Retry(reason: reason, delay: delay, scheduledAt: now, status: .waiting)
        case .retryDeclined(let id, let attempt, let declined):
            guard let index = lastIndex(id, attempt: attempt) else { return }
            attempts[index].declined = declined.description
        case .cancelled(let id, let superseded):
            for index in attempts.indices where attempts[index].key.request == id {
                switch attempts[index].outcome {
                case .inFlight, .cancelled: attempts[index].outcome = .cancelled(superseded: superseded)
                case .response, .failure: break
                }
                if attempts[index].retry?.status == .waiting { attempts[index].retry?.status = .cancelled }
            }
        case .cacheDecision(let id, let report):
            if let index = attempts.lastIndex(where: { $0.key.request == id }) {
                attempts[index].cache = report
            } else {
                pendingCache[id] = report
            }
        case .tokenRefresh(let id, let succeeded):
            if let index = attempts.lastIndex(where: { $0.key.request == id }) {
                attempts[index].tokenRefreshed = succeeded
            }
        case .auth(let id, let event):
            // A renewal after a 401 belongs to the refused attempt; anything else to the attempt to come.
            if case .renewedAfter401 = event.action, let index = attempts.lastIndex(where: { $0.key.request == id }) {
                attempts[index].auth.append(event.description(now: now))
            } else {
                pendingAuth[id, default: []].append(event.description(now: now))
            }
        }
        if follow { selectLast() }
    }

    /// Adds the row of a request the HTTP cache answered while fresh: it made no attempt, so no attempt
    /// event will ever describe it.
    public mutating func addCacheHit(_ id: RequestID, method: String, url: URL, status: Int, report: CacheReport,
                                     at time: Date) {
        pendingCache.removeValue(forKey: id)
        var entry = LogAttempt(key: LogAttempt.Key(request: id, attempt: 0), method: method, url: url,
                               requestHeaders: [:], started: time)
        entry.outcome = .response(status: status, headers: [:])
        entry.cache = report
        entry.fromCache = true
        attempts.append(entry)
        trim()
        if follow { selectLast() }
    }

    // MARK: Commands

    /// Applies a key's command.
    public mutating func handle(_ command: LogPaneCommand) {
        let count = rows.count
        if detail != nil {
            switch command {
            case .closeDetail, .openDetail: detail = nil
            case .down: detailScroll.top += 1
            case .up: detailScroll.top = max(0, detailScroll.top - 1)
            case .pageDown: detailScroll.top += pageSize
            case .pageUp: detailScroll.top = max(0, detailScroll.top - pageSize)
            case .top: detailScroll.top = 0
            case .bottom, .toggleErrorsOnly, .toggleOnlySelectedRequest, .clear: break
            }
            return
        }
        switch command {
        case .down: move(by: 1, count: count)
        case .up: move(by: -1, count: count)
        case .pageDown: move(by: pageSize, count: count)
        case .pageUp: move(by: -pageSize, count: count)
        case .top:
            list.first(count: count)
            follow = false
        case .bottom:
            follow = true
            selectLast()
        case .openDetail:
            guard let attempt = selectedAttempt else { return }
            detail = attempt.key
            detailScroll = TextViewState()
        case .closeDetail: break
        case .toggleErrorsOnly: refilter { $0.errorsOnly.toggle() }
        case .toggleOnlySelectedRequest:
            let request = selectedAttempt?.key.request
            refilter { $0.onlyRequest = $0.onlyRequest == nil ? request : nil }
        case .clear:
            attempts.removeAll()
            pendingCache.removeAll()
            pendingAuth.removeAll()
            list = ListState()
            onlyRequest = nil
            follow = true
        }
    }

    /// Selects the row under a click at `position` in a pane drawn into `area` (as `LogPaneView` lays it out).
    public mutating func select(at position: Position, area: Rect) {
        guard detail == nil else { return }
        let body = LogPaneState.body(of: area)
        guard body.contains(position) else { return }
        let count = rows.count
        let index = list.visibleOffset(height: body.height, count: count) + position.y - body.y
        guard index >= 0, index < count else { return }
        list.select(index, count: count)
        follow = index == count - 1
    }

    /// Scrolls the rows by `delta` (the mouse wheel), moving the selection with them.
    public mutating func scroll(by delta: Int) {
        move(by: delta, count: rows.count)
    }

    /// Where rows go in `area`: below the scale header when there is room for one.
    static func body(of area: Rect) -> Rect {
        area.height >= 3 ? Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1) : area
    }

    // MARK: Internals

    /// The headers request `id`'s latest attempt went out with, as the transport sent them.
    public mutating func recordSentHeaders(_ headers: HTTPHeaders, for id: RequestID) {
        guard let index = attempts.lastIndex(where: { $0.key.request == id }) else { return }
        attempts[index].requestHeaders = headers.redacted()
    }

    /// The header fields of a request head as written on the wire (`GET / HTTP/1.1`, then `Name: value` lines).
    public static func headers(ofHead head: String) -> HTTPHeaders {
        let lines = head.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst()
        return HTTPHeaders(lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeaders.Field(name: String(line[..<colon]),
                                     value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        })
    }

    private func lastIndex(_ id: RequestID, attempt: Int) -> Int? {
        attempts.lastIndex { $0.key.request == id && $0.key.attempt == attempt }
    }

    private mutating func move(by delta: Int, count: Int) {
        list.move(by: delta, count: count)
        // Keep the scroll where the view is, so moving inside the page does not jump it.
        list.scrollToSelection(height: max(1, pageSize), count: count)
        follow = list.selected == count - 1
    }

    private mutating func selectLast() {
        let count = rows.count
        list.select(count - 1, count: count)
    }

    /// Changes a filter and keeps the same attempt selected when it is still shown.
    private mutating func refilter(_ change: (inout LogPaneState) -> Void) {
        let key = selectedAttempt?.key
        change(&self)
        let rows = rows
        if let key, let index = rows.firstIndex(where: { attempts[$0.index].key == key && $0.kind == .attempt }) {
            list.select(index, count: rows.count)
        } else {
            list.select(rows.count - 1, count: rows.count)
        }
        list.offset = 0
    }

    /// Drops the oldest attempts beyond the bound, keeping the selection on the same row.
    private mutating func trim() {
        let excess = attempts.count - maxAttempts
        guard excess > 0 else { return }
        let removedKeys = Set(attempts.prefix(excess).map(\.key))
        let selected = selectedAttempt?.key
        attempts.removeFirst(excess)
        if let detail, removedKeys.contains(detail) { self.detail = nil }
        let rows = rows
        if !follow, let selected, let index = rows.firstIndex(where: { attempts[$0.index].key == selected }) {
            list.select(index, count: rows.count)
        } else {
            list.select(rows.count - 1, count: rows.count)
        }
    }
}

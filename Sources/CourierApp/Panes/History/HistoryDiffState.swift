import CourierBody
import CourierHistory
import CourierTerminal
import Foundation

/// The diff of two kept responses of a request: status, header changes, then a line diff of the
/// pretty bodies, unified or side by side, with the changed words of modified lines highlighted.
public struct HistoryDiffState: Sendable {
    public enum Layout: Sendable, Hashable { case unified, sideBySide }

    /// One display row before layout: a full-width line, or a body line pair.
    enum Row: Sendable, Hashable {
        case note(String, Role)
        case hunk(String)
        case line(CourierBody.LineDiff.Line)
        case pair(CourierBody.LineDiff.Line?, CourierBody.LineDiff.Line?)
    }

    enum Role: Sendable, Hashable { case title, muted, added, removed, changed }

    public let older: HistoryEntry
    public let newer: HistoryEntry
    public var layout: Layout = .unified
    public var scroll = TextViewState()
    private let header: [Row]
    private let unifiedRows: [Row]
    private let sideRows: [Row]

    /// Diffs `older` against `newer` given their stored bodies.
    public init(older: HistoryEntry, olderBody: Data, newer: HistoryEntry, newerBody: Data, timeZone: TimeZone = .autoupdatingCurrent) {
        self.older = older
        self.newer = newer
        var header: [Row] = [.note("\(HistoryPaneFormat.clock(older.date, zone: timeZone)) → \(HistoryPaneFormat.clock(newer.date, zone: timeZone))  \(newer.request.method) \(newer.request.url)", .title)]
        let oldStatus = HistoryPaneFormat.status(older), newStatus = HistoryPaneFormat.status(newer)
        header.append(oldStatus == newStatus ? .note("status: \(newStatus) (unchanged)", .muted)
                                             : .note("status: \(oldStatus) → \(newStatus)", .changed))
        let headers = HeaderDiff(old: (older.response?.headers ?? []).map { ($0.name, $0.value) },
                                 new: (newer.response?.headers ?? []).map { ($0.name, $0.value) })
        if headers.changes.isEmpty { header.append(.note("headers: unchanged", .muted)) }
        for change in headers.changes {
            switch change {
            case let .added(name, value): header.append(.note("+ \(name): \(value)", .added))
            case let .removed(name, value): header.append(.note("- \(name): \(value)", .removed))
            case let .changed(name, old, new): header.append(.note("~ \(name): \(old) → \(new)", .changed))
            }
        }
        let old = HistoryBodyLines.lines(olderBody), new = HistoryBodyLines.lines(newerBody)
        let hunks = CourierBody.LineDiff.hunks(old: old.lines, new: new.lines)
        if hunks.isEmpty { header.append(.note("body: unchanged", .muted)) }
        if old.truncated || new.truncated {
            header.append(.note("body: only the first \(HistoryBodyLines.maxLines) lines are compared", .muted))
        }
        self.header = header
        unifiedRows = hunks.flatMap { hunk in [Row.hunk(hunk.header)] + hunk.lines.map { Row.line($0) } }
        sideRows = hunks.flatMap { hunk in
            [Row.hunk(hunk.header)] + CourierBody.LineDiff.sideBySide(hunk).map { Row.pair($0.left, $0.right) }
        }
    }

    /// The rows of the current layout.
    var rows: [Row] { header + (layout == .unified ? unifiedRows : sideRows) }

    /// The diff as plain text lines (unified layout), for copying or the CLI.
    public var unifiedText: [String] {
        (header + unifiedRows).map { row in
            switch row {
            case .note(let text, _), .hunk(let text): text
            case .line(let line): Self.prefix(line.kind) + line.text
            case .pair: ""
            }
        }
    }

    public mutating func toggleLayout() {
        layout = layout == .unified ? .sideBySide : .unified
        scroll.top = 0
    }

    /// Scrolls by `delta` rows within a view `height` rows high.
    public mutating func scroll(by delta: Int, height: Int) {
        scroll.scroll(by: delta, lineCount: rows.count, height: height)
    }

    // MARK: Drawing

    /// Draws the visible rows into `area`.
    public func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        guard !area.isEmpty else { return }
        let rows = rows
        let top = min(scroll.top, max(0, rows.count - area.height))
        for line in 0..<area.height {
            let index = top + line
            guard index < rows.count else { break }
            let y = area.y + line
            switch rows[index] {
            case let .note(text, role):
                buffer.write(text, x: area.x, y: y, style: style(role, theme), maxWidth: area.width)
            case .hunk(let text):
                buffer.write(text, x: area.x, y: y, style: theme.muted, maxWidth: area.width)
            case .line(let diffLine):
                draw(styled(diffLine, theme, prefixed: true), x: area.x, y: y, width: area.width, into: &buffer)
            case let .pair(left, right):
                let half = max(1, (area.width - 1) / 2)
                if let left { draw(styled(left, theme, prefixed: true), x: area.x, y: y, width: half, into: &buffer) }
                buffer.write("│", x: area.x + half, y: y, style: theme.muted)
                if let right {
                    draw(styled(right, theme, prefixed: true), x: area.x + half + 1, y: y,
                         width: area.width - half - 1, into: &buffer)
                }
            }
        }
    }

    private func draw(_ line: StyledLine, x: Int, y: Int, width: Int, into buffer: inout Buffer) {
        var used = 0
        for span in line.spans where used < width {
            used += buffer.write(span.text, x: x + used, y: y, style: span.style, maxWidth: width - used)
        }
    }

    /// A body line with its `-`/`+`/` ` mark, the changed words in `diffChanged` over the line's colour.
    private func styled(_ line: CourierBody.LineDiff.Line, _ theme: Theme, prefixed: Bool) -> StyledLine {
        let base: Style = switch line.kind {
        case .context: theme.text
        case .added: theme.diffAdded
        case .removed: theme.diffRemoved
        }
        var out = StyledLine(Self.prefix(line.kind), style: base)
        let characters = Array(line.text)
        var position = 0
        for change in line.changes.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let range = max(position, min(change.lowerBound, characters.count))..<min(change.upperBound, characters.count)
            guard !range.isEmpty else { continue }
            if range.lowerBound > position { out.append(String(characters[position..<range.lowerBound]), style: base) }
            out.append(String(characters[range]), style: base.overlaid(by: theme.diffChanged))
            position = range.upperBound
        }
        if position < characters.count { out.append(String(characters[position...]), style: base) }
        return out
    }

    private static func prefix(_ kind: CourierBody.LineDiff.Line.Kind) -> String {
        switch kind {
        case .context: " "
        case .added: "+"
        case .removed: "-"
        }
    }

    private func style(_ role: Role, _ theme: Theme) -> Style {
        switch role {
        case .title: theme.title
        case .muted: theme.muted
        case .added: theme.diffAdded
        case .removed: theme.diffRemoved
        case .changed: theme.diffChanged
        }
    }
}

import CourierBody
import Foundation

/// The diff of two responses as display lines: status, header changes, then a unified diff of the
/// pretty bodies with changed words marked.
enum ResponseDiff {
    /// Bodies longer than this many lines are not diffed line by line (the sizes are compared instead).
    static let maxLines = 200_000

    static func lines(old: ResponsePaneState, new: ResponsePaneState) -> StaticLines {
        var out: [ColoredLine] = []
        func add(_ text: String, _ role: TextRole, changes: [Range<Int>] = [], offset: Int = 0) {
            var spans = [ColoredLine.Span(0..<text.count, role)]
            if !changes.isEmpty {
                spans = changes.map { ColoredLine.Span($0.lowerBound + offset..<$0.upperBound + offset, .literal) }
                spans.insert(ColoredLine.Span(0..<1, role), at: 0)
            }
            out.append(ColoredLine(text: text, spans: changes.isEmpty ? spans : fill(spans, role, text.count)))
        }
        if old.info.status != new.info.status {
            add("status: \(old.info.statusText) → \(new.info.statusText)", .literal)
        } else {
            add("status: \(new.info.statusText) (unchanged)", .muted)
        }
        let headers = HeaderDiff(old: old.info.headers.map { ($0.name, $0.value) }, new: new.info.headers.map { ($0.name, $0.value) })
        if headers.changes.isEmpty { add("headers: unchanged", .muted) }
        for line in headers.lines {
            add(line, line.hasPrefix("+") ? .string : line.hasPrefix("-") ? .invalid : .literal)
        }
        let oldLines = bodyLines(old), newLines = bodyLines(new)
        guard let oldLines, let newLines else {
            add("body: \(MediaKind.formatSize(old.body.byteCount)) → \(MediaKind.formatSize(new.body.byteCount)) (too large to diff by line)", .muted)
            return StaticLines(out)
        }
        let hunks = CourierBody.LineDiff.hunks(old: oldLines, new: newLines)
        if hunks.isEmpty { add("body: unchanged", .muted) }
        for hunk in hunks {
            add(hunk.header, .key)
            for line in hunk.lines {
                switch line.kind {
                case .context: add(" " + line.text, .text)
                case .removed: add("-" + line.text, .invalid, changes: line.changes, offset: 1)
                case .added: add("+" + line.text, .string, changes: line.changes, offset: 1)
                }
            }
        }
        return StaticLines(out)
    }

    /// Spans covering the whole line: `role` between the changed ranges.
    private static func fill(_ changes: [ColoredLine.Span], _ role: TextRole, _ count: Int) -> [ColoredLine.Span] {
        var spans: [ColoredLine.Span] = []
        var position = 0
        for change in changes.dropFirst() {
            let range = max(position, change.range.lowerBound)..<min(count, change.range.upperBound)
            guard !range.isEmpty else { continue }
            if range.lowerBound > position { spans.append(.init(position..<range.lowerBound, role)) }
            spans.append(.init(range, .literal))
            position = range.upperBound
        }
        if position < count { spans.append(.init(position..<count, role)) }
        return spans
    }

    /// The body as the lines the user reads (pretty when JSON); nil when too long to diff.
    private static func bodyLines(_ state: ResponsePaneState) -> [String]? {
        let source: any LineSource = state.pretty ?? state.body
        source.indexAll()
        guard source.lineCount <= maxLines else { return nil }
        return (0..<source.lineCount).map { source.line($0) }
    }
}

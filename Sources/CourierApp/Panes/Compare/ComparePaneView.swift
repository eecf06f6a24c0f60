import CourierHTTP
import CourierTerminal
import Foundation

/// Draws `ComparePaneState`: the two responses side by side (status, cache
/// decision, age and freshness, body size), then a scrolling list of what the validation cost and
/// what it changed (headers added, removed and updated; the body unchanged or a line diff).
public enum ComparePaneView: PaneView {
    /// One row of text in styled runs.
    typealias Row = [(text: String, style: Style)]

    public static func frame(_ state: ComparePaneState, _ context: RenderContext) -> PaneFrame {
        PaneFrame("Compare · \(context.masked(state.title))", number: PaneID.response.rawValue)
    }

    @discardableResult
    public static func render(_ state: ComparePaneState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        let (inner, theme) = (context.area, context.theme)
        guard inner.width >= 2, inner.height >= 1 else { return nil }
        buffer.fill(inner)
        let mask = context.masked
        var rows: [Row] = []
        if let comparison = state.comparison {
            rows += masked(sideBySide(comparison.before, comparison.after, width: inner.width, theme: theme), mask)
            rows.append([])
        } else if let stored = state.stored {
            rows += masked(sideBySide(stored, nil, width: inner.width, theme: theme), mask)
            rows.append([])
        }
        if state.isRevalidating { rows.append([("Revalidating…", theme.warning)]) }
        if let message = state.message { rows.append([(message, theme.muted)]) }
        if state.comparison == nil && state.message == nil && !state.isRevalidating {
            let key = context.keys.spelling(of: .compare(.revalidateNow))
            let hint = state.stored == nil ? "No revalidation yet: press \(key) to send the conditional request."
                : "Press \(key) to revalidate the stored response now."
            rows.append([(hint, theme.muted)])
        }
        let fixed = rows.count
        // Masked before wrapping, so a secret that would be split over two rows is still found whole.
        let scrolling = state.comparison.map { wrap(masked(details($0, theme: theme), mask), width: inner.width) } ?? []
        let visible = max(0, inner.height - fixed)
        let start = max(0, min(state.scroll, scrolling.count - visible))
        rows += scrolling.dropFirst(start).prefix(visible)
        for (index, row) in rows.prefix(inner.height).enumerated() {
            var x = inner.x
            for run in row {
                x += buffer.write(run.text, x: x, y: inner.y + index, style: run.style, maxWidth: inner.maxX - x)
            }
        }
        return nil
    }

    /// `rows` with each run's text masked.
    static func masked(_ rows: [Row], _ mask: (String) -> String) -> [Row] {
        rows.map { row in row.map { (mask($0.text), $0.style) } }
    }

    /// How many rows the scrolling part has, so that scrolling stops at its end.
    static func scrollingLineCount(_ state: ComparePaneState) -> Int {
        state.comparison.map { wrap(details($0, theme: .dark), width: state.width).count } ?? 0
    }

    /// Rows longer than `width` continue on the next rows, indented, so a diff line is never cut.
    static func wrap(_ rows: [Row], width: Int) -> [Row] {
        let indent = "      "
        guard width > indent.count + 8 else { return rows }
        var out: [Row] = []
        for row in rows {
            var line: Row = []
            var used = 0
            for run in row {
                var rest = Substring(run.text)
                while !rest.isEmpty {
                    if used == width {
                        out.append(line)
                        line = [(indent, Style())]
                        used = indent.count
                    }
                    let piece = rest.prefix(width - used)
                    line.append((String(piece), run.style))
                    used += piece.count
                    rest = rest.dropFirst(piece.count)
                }
            }
            out.append(line)
        }
        return out
    }

    // MARK: - Parts

    /// The two responses in columns; the right one is a placeholder until there is a revalidation.
    private static func sideBySide(_ before: CacheComparison.Side, _ after: CacheComparison.Side?, width: Int,
                                   theme: Theme) -> [Row] {
        let column = max(1, (width - 3) / 2)
        func pair(_ left: Row, _ right: Row) -> Row {
            padded(left, to: column) + [(" │ ", theme.border)] + right
        }
        func status(_ side: CacheComparison.Side) -> Row {
            [(statusText(side.status, reason: side.reason), theme.status(side.status))]
        }
        func decision(_ side: CacheComparison.Side) -> Row {
            // `fresh` and `stale` are freshness verdicts: the row below states the one verdict.
            guard side.ttl == nil || ![.fresh, .stale].contains(side.decision) else { return [("cache", theme.muted)] }
            return [("cache ", theme.muted), (side.decision.rawValue, theme.cache(side.decision.rawValue))]
        }
        func freshness(_ side: CacheComparison.Side) -> Row {
            [("age " + (side.age.map(seconds) ?? "–") + " · ", theme.text)] + verdict(side)
        }
        func body(_ side: CacheComparison.Side) -> Row { [("body " + bytes(side.bodyBytes), theme.text)] }
        guard let after else {
            let waiting: Row = [("not revalidated yet", theme.muted)]
            return [
                pair([("Stored", theme.title)], [("Revalidated", theme.title)]),
                pair(status(before), waiting),
                pair(decision(before), []),
                pair(freshness(before), []),
                pair(body(before), []),
            ]
        }
        return [
            pair([("Stored", theme.title)], [("Revalidated", theme.title)]),
            pair(status(before), status(after)),
            pair(decision(before), decision(after)),
            pair(freshness(before), freshness(after)),
            pair(body(before), body(after)),
        ]
    }

    /// The side's one freshness verdict: from its time to live when known, else from the cache's decision.
    static func verdict(_ side: CacheComparison.Side) -> Row {
        if let ttl = side.ttl {
            return ttl > 0 ? [("fresh, \(seconds(ttl)) left", Style())] : [("stale by \(seconds(-ttl))", Style())]
        }
        switch side.decision {
        case .fresh: return [("fresh", Style())]
        case .stale: return [("stale", Style())]
        default: return [("freshness unknown", Style())]
        }
    }

    /// The cost of the validation and what it changed.
    static func details(_ comparison: CacheComparison, theme: Theme) -> [Row] {
        var rows: [Row] = []
        let label = { (text: String) in (text.padding(toLength: 13, withPad: " ", startingAt: 0), theme.muted) }
        rows.append([label("Validation"), (statusText(comparison.validationStatus, reason: ""),
                                           theme.status(comparison.validationStatus))])
        var transfer = "\(bytes(comparison.bytesTransferred)) vs \(bytes(comparison.fullFetchBytes)) for a full fetch"
        if comparison.validationStatus == 304 && comparison.fullFetchBytes > 0 {
            let percent = Int((Double(comparison.bytesSaved) / Double(comparison.fullFetchBytes) * 100).rounded())
            transfer += " · saved \(bytes(comparison.bytesSaved)) (\(percent)%)"
        }
        rows.append([label("Transferred"), (transfer, theme.text)])
        var time = "\(milliseconds(comparison.validationSeconds)) vs \(milliseconds(comparison.fullFetchSeconds)) for a full fetch"
        if comparison.validationStatus == 304 {
            let saved = comparison.secondsSaved
            time += saved >= 0 ? " · saved \(milliseconds(saved))" : " · \(milliseconds(-saved)) slower"
        }
        rows.append([label("Time"), (time, theme.text)])
        rows.append([])

        let count = comparison.headerChanges.count
        rows.append([label("Headers"), (count == 0 ? "unchanged" : "\(count) changed", theme.text)])
        for name in comparison.withheld { rows.append([("  \(name) withheld from the cache", theme.muted)]) }
        for change in comparison.headerChanges {
            switch change {
            case .added(let name, let value): rows.append([("  + \(name): \(value)", theme.diffAdded)])
            case .removed(let name, let value): rows.append([("  - \(name): \(value)", theme.diffRemoved)])
            case .changed(let name, let old, let new):
                rows.append([("  ~ \(name): ", theme.diffChanged), (old, theme.diffRemoved), (" → ", theme.muted),
                             (new, theme.diffAdded)])
            }
        }
        rows.append([])

        switch comparison.body {
        case .unchanged(let size):
            rows.append([label("Body"), ("unchanged (\(bytes(size)))", theme.text)])
        case .differs(let old, let new):
            rows.append([label("Body"), ("changed: \(bytes(old)) → \(bytes(new)), too large to diff", theme.text)])
        case .lines(let lines):
            let changed = lines.filter { $0.kind != .context }.count
            rows.append([label("Body"), ("\(changed) line\(changed == 1 ? "" : "s") changed", theme.text)])
            for line in lines {
                switch line.kind {
                case .context: rows.append([("    " + line.text, theme.muted)])
                case .added: rows.append([("  + " + line.text, theme.diffAdded)])
                case .removed: rows.append([("  - " + line.text, theme.diffRemoved)])
                }
            }
        }
        return rows
    }

    // MARK: - Formatting

    private static func padded(_ row: Row, to width: Int) -> Row {
        var result: Row = []
        var used = 0
        for run in row {
            let room = width - used
            guard room > 0 else { break }
            let text = String(run.text.prefix(room))
            result.append((text, run.style))
            used += text.count
        }
        if used < width { result.append((String(repeating: " ", count: width - used), Style())) }
        return result
    }

    static func seconds(_ value: Double) -> String {
        let whole = Int(value.rounded())
        if whole < 120 { return "\(whole)s" }
        if whole < 7200 { return "\(whole / 60)m" }
        if whole < 172_800 { return "\(whole / 3600)h" }
        return "\(whole / 86_400)d"
    }

    static func milliseconds(_ seconds: Double) -> String { DurationText.format(seconds: seconds) }

    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1_048_576)
    }

    /// Reason phrases for the statuses a validation meets, when the server sent none.
    static let reasonPhrases: [Int: String] = [
        200: "OK", 203: "Non-Authoritative Information", 204: "No Content", 304: "Not Modified",
        404: "Not Found", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    static func reasonPhrase(_ status: Int) -> String { reasonPhrases[status] ?? "" }

    /// `304 Not Modified`; the bare code when neither the server (HTTP/2 sends none) nor the table has a phrase.
    static func statusText(_ status: Int, reason: String) -> String {
        let phrase = reason.isEmpty ? reasonPhrase(status) : reason
        return phrase.isEmpty ? "\(status)" : "\(status) \(phrase)"
    }
}

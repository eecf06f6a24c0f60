import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation

/// Draws the log pane: a header with the waterfall's scale, then one row per attempt (and a retry line under
/// a retried one, a "not retried" line under a failure handed back), or the detail of one attempt.
public enum LogPaneView: PaneView {
    public static func frame(_ state: LogPaneState, _ context: RenderContext) -> PaneFrame {
        let legend = state.legend
        return PaneFrame(state.title, number: PaneID.log.rawValue,
                         rightTitle: legend.isEmpty ? StyledLine() : StyledLine(legend, style: context.theme.muted))
    }

    @discardableResult
    public static func render(_ state: LogPaneState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        state.draw(context, into: &buffer)
        return nil
    }
}

extension LogPaneState {
    /// Column widths for a pane `width` cells wide.
    struct Columns {
        static let time = 8, attempt = 3, status = 10, duration = 7, marker = 1, cache = 11
        var request: Int
        var bar: Int
        var showCache: Bool

        init(width: Int) {
            showCache = width >= 96
            let fixed = Columns.time + Columns.attempt + Columns.status + Columns.duration + Columns.marker + 6
                + (showCache ? Columns.cache + 1 : 0)
            request = min(32, max(8, width / 3))
            bar = width - fixed - request
            if bar < 8 {
                request = max(8, width - fixed - 8)
                bar = width - fixed - request
            }
            if bar < 4 {
                request += max(0, bar)
                bar = 0
            }
        }

        var requestX: Int { Columns.time + 1 }
        var attemptX: Int { requestX + request + 1 }
        var statusX: Int { attemptX + Columns.attempt + 1 }
        var barX: Int { statusX + Columns.status + 1 }
        var durationX: Int { barX + bar + (bar > 0 ? 1 : 0) }
        var markerX: Int { durationX + Columns.duration + 1 }
        var cacheX: Int { markerX + Columns.marker + 1 }
    }

    /// Glyphs per phase, so the waterfall reads in monochrome and in text snapshots too.
    static let phaseGlyphs: [String: String] = ["DNS": "░", "connect": "▒", "TLS": "▓", "wait": "█", "transfer": "▄"]

    /// Draws the pane's content into `context.area`.
    fileprivate func draw(_ context: RenderContext, into buffer: inout Buffer) {
        let (area, theme, focused, now) = (context.area, context.theme, context.focused, context.now)
        let masker = context.masker
        guard !area.isEmpty else { return }
        buffer.fill(area, with: Cell(" ", style: theme.text))
        if let detail, let attempt = attempts.last(where: { $0.key == detail }) {
            renderDetail(attempt.masked(by: masker), into: &buffer, area: area, theme: theme)
            return
        }
        let rows = rows
        guard !rows.isEmpty else {
            let message = attempts.isEmpty ? "Attempts, retries and timings appear here." : "No rows match the filter."
            buffer.write(message, x: area.x, y: area.y, style: theme.muted, maxWidth: area.width)
            return
        }
        let columns = Columns(width: area.width)
        let visible = rows.map { attempts[$0.index] }.filter { $0.timing != nil }
        let scale = visible.map { LogPaneFormat.seconds($0.timing!.total) }.max() ?? 0
        let body = LogPaneState.body(of: area)
        if body != area {
            renderHeader(into: &buffer, y: area.y, x: area.x, columns: columns, scale: scale, theme: theme)
        }
        let top = list.visibleOffset(height: body.height, count: rows.count)
        for line in 0..<body.height {
            let position = top + line
            guard position < rows.count else { break }
            let row = rows[position]
            let y = body.y + line
            let previous = position > 0 ? attempts[rows[position - 1].index] : nil
            switch row.kind {
            case .attempt:
                let first = previous?.key.request != attempts[row.index].key.request
                renderAttempt(attempts[row.index].masked(by: masker), first: first, into: &buffer, x: body.x, y: y, columns: columns,
                              scale: scale, theme: theme)
            case .retry:
                renderRetry(attempts[row.index], into: &buffer, x: body.x, y: y, width: body.width, columns: columns,
                            theme: theme, now: now)
            case .declined:
                let text = "⊘ not retried · " + (attempts[row.index].declined ?? "")
                let room = body.width - columns.requestX - 2
                buffer.write(Draw.fitted(text, width: room), x: body.x + columns.requestX + 2, y: y, style: theme.muted,
                             maxWidth: room)
            case .scripts:
                let report = attempts[row.index].scripts ?? ScriptReport()
                let failed = report.error != nil || report.tests.contains { !$0.passed }
                let parts = [report.testSummary, report.error == nil ? nil : "script error"].compactMap { $0 }
                let text = parts.isEmpty ? "✓ scripts ran" : (failed ? "✗ " : "✓ ") + parts.joined(separator: " · ")
                let room = body.width - columns.requestX - 2
                buffer.write(Draw.fitted(text, width: room), x: body.x + columns.requestX + 2, y: y,
                             style: failed ? theme.error : theme.success, maxWidth: room)
            }
            if focused && position == list.selected {
                let selected = Rect(x: body.x, y: y, width: body.width, height: 1)
                for x in selected.x..<selected.maxX {
                    buffer[x, y].style = buffer[x, y].style.overlaid(by: theme.selection)
                }
            }
        }
    }

    private func renderHeader(into buffer: inout Buffer, y: Int, x: Int, columns: Columns, scale: Double,
                              theme: Theme) {
        let style = theme.muted
        buffer.write("time", x: x, y: y, style: style)
        buffer.write("request", x: x + columns.requestX, y: y, style: style, maxWidth: columns.request)
        buffer.write("try", x: x + columns.attemptX, y: y, style: style)
        buffer.write("status", x: x + columns.statusX, y: y, style: style)
        if columns.bar > 0 {
            // The scale: the bar's full width is the slowest attempt shown.
            let end = scale > 0 ? DurationText.format(.milliseconds(Int64((scale * 1000).rounded()))) : "–"
            let label = "0" + String(repeating: "·", count: max(1, columns.bar - 1 - end.count)) + end
            buffer.write(label, x: x + columns.barX, y: y, style: style, maxWidth: columns.bar)
        }
        buffer.write("  total", x: x + columns.durationX, y: y, style: style, maxWidth: LogPaneState.Columns.duration)
        if columns.showCache { buffer.write("cache", x: x + columns.cacheX, y: y, style: style) }
    }

    private func renderAttempt(_ attempt: LogAttempt, first: Bool, into buffer: inout Buffer, x: Int, y: Int,
                               columns: Columns, scale: Double, theme: Theme) {
        let greyed = attempt.isCancelled
        let grey = theme.muted.with(.dim)
        func styled(_ style: Style) -> Style { greyed ? grey : style }
        buffer.write(LogPaneFormat.clock(attempt.started, zone: timeZone), x: x, y: y, style: styled(theme.muted))
        if first {
            let used = buffer.write(attempt.method, x: x + columns.requestX, y: y,
                                    style: styled(theme.method(attempt.method)), maxWidth: columns.request)
            buffer.write(Draw.fitted(" " + attempt.path, width: columns.request - used), x: x + columns.requestX + used,
                         y: y, style: styled(theme.text), maxWidth: columns.request - used)
        } else {
            buffer.write("└", x: x + columns.requestX + 1, y: y, style: styled(theme.muted))
        }
        buffer.write(attempt.fromCache ? "–" : "#\(attempt.key.attempt)", x: x + columns.attemptX, y: y,
                     style: styled(theme.muted), maxWidth: Columns.attempt)
        let (status, statusStyle): (String, Style) = switch attempt.outcome {
        case .inFlight: ("…", theme.warning)
        case .response(let code, _): ("\(code)", theme.status(code))
        case .failure(let kind, _): (LogPaneFormat.shortKinds[kind] ?? kind.rawValue, theme.error)
        case .cancelled(let superseded): (superseded ? "superseded" : "cancelled", grey)
        }
        buffer.write(status, x: x + columns.statusX, y: y, style: styled(statusStyle), maxWidth: Columns.status)
        if attempt.fromCache {
            let room = (columns.showCache ? columns.cacheX - 1 : columns.markerX + Columns.marker) - columns.barX
            // The longest wording that fits whole: text is never cut mid-word.
            if let text = LogPaneFormat.cacheHit.first(where: { DisplayWidth.of($0) <= room }) {
                buffer.write(text, x: x + columns.barX, y: y, style: styled(theme.cache("fresh")))
            }
        }
        guard let timing = attempt.timing else { return }
        if columns.bar > 0, scale > 0 {
            let phases = LogPaneFormat.phases(timing)
            let bar = SegmentBar(phases.map {
                SegmentBar.Segment(start: LogPaneFormat.seconds($0.start), length: LogPaneFormat.seconds($0.length),
                                   style: .plain)
            }, scale: scale)
            for (phase, range) in zip(phases, bar.columns(width: columns.bar)) {
                let base = LogPaneFormat.style(ofPhase: phase.name, theme: theme)
                // The glyph takes the phase colour too, so in colour the bar is solid.
                let style = greyed ? grey : base.background == .default ? base : base.fg(base.background)
                for column in range {
                    buffer.put(Cell(LogPaneState.phaseGlyphs[phase.name] ?? "█", style: style),
                               x: x + columns.barX + column, y: y)
                }
            }
        }
        let total = DurationText.format(timing.total)
        let pad = String(repeating: " ", count: max(0, Columns.duration - total.count))
        buffer.write(pad + total, x: x + columns.durationX, y: y, style: styled(theme.text), maxWidth: Columns.duration)
        if timing.reusedConnection {
            buffer.write("↺", x: x + columns.markerX, y: y, style: styled(theme.muted))
        }
        if columns.showCache, let cache = attempt.cache {
            buffer.write(cache.decision.rawValue, x: x + columns.cacheX, y: y,
                         style: styled(theme.cache(cache.decision.rawValue)), maxWidth: Columns.cache)
        }
    }

    private func renderRetry(_ attempt: LogAttempt, into buffer: inout Buffer, x: Int, y: Int, width: Int,
                             columns: Columns, theme: Theme, now: Date) {
        guard let retry = attempt.retry else { return }
        let delay = LogPaneFormat.countdown(retry.delay)
        let (text, style): (String, Style) = switch retry.status {
        case .waiting:
            retry.remaining(at: now) > .zero
                ? ("↻ retry in \(LogPaneFormat.countdown(retry.remaining(at: now))) of \(delay) · \(retry.reason)",
                   theme.warning)
                : ("↻ retrying now · \(retry.reason)", theme.warning)
        case .done: ("↻ retried after \(delay) · \(retry.reason)", theme.muted)
        case .cancelled: ("↻ retry cancelled · \(retry.reason)", theme.muted.with(.dim))
        }
        let room = width - columns.requestX - 2
        buffer.write(Draw.fitted(text, width: room), x: x + columns.requestX + 2, y: y, style: style, maxWidth: room)
    }
}

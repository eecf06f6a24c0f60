import CourierCollections
import CourierHTTP
import CourierMessage
import CourierTerminal
import Foundation

/// The detail of one attempt: what was sent (headers redacted), what came back, the timings as
/// numbers, the error with its cause, the cache decision and the retry (or why there was none).
extension LogPaneState {
    /// The detail's lines, for drawing and for tests.
    public func detailLines(_ attempt: LogAttempt, theme: Theme) -> [StyledLine] {
        var lines: [StyledLine] = []
        func heading(_ text: String) { lines.append(StyledLine(text, style: theme.title.with(.bold))) }
        func field(_ name: String, _ value: String, _ style: Style? = nil) {
            let label = name.padding(toLength: 12, withPad: " ", startingAt: 0)
            lines.append(StyledLine([Span("  " + label, style: theme.muted), Span(value, style: style ?? theme.text)]))
        }
        lines.append(StyledLine([Span(attempt.method + " ", style: theme.method(attempt.method)),
                                 Span(attempt.url.absoluteString, style: theme.text)]))
        field("request", "\(attempt.key.request), attempt \(attempt.key.attempt)")
        field("started", LogPaneFormat.preciseClock(attempt.started, zone: timeZone))
        switch attempt.outcome {
        case .inFlight: field("outcome", "in flight", theme.warning)
        case .response(let status, _): field("status", "\(status)", theme.status(status))
        case .failure(let kind, let message):
            field("error", kind.rawValue, theme.error)
            field("cause", message, theme.error)
        case .cancelled(let superseded):
            field("outcome", superseded ? "superseded by a newer request" : "cancelled", theme.muted)
        }
        // Why the request carried the token it did, before the timings: it explains the rows above it.
        for line in attempt.auth { field("auth", line) }
        if let timing = attempt.timing {
            heading("Timings")
            for phase in LogPaneFormat.phases(timing) {
                field(phase.name, DurationText.format(phase.length) + "  (from \(DurationText.format(phase.start)))")
            }
            if let firstByte = timing.firstByte { field("first byte", DurationText.format(firstByte)) }
            field("total", DurationText.format(timing.total))
            field("connection", timing.reusedConnection ? "reused" : "new")
            field("bytes", "\(timing.bytesSent) sent, \(timing.bytesReceived) received")
        }
        if let cache = attempt.cache {
            // `stale (age 70 s, stale by 10 s)`, as courier send says it, rather than a negative time to live.
            field("cache", cache.summary, theme.cache(cache.decision.rawValue))
        }
        if let refreshed = attempt.tokenRefreshed {
            field("token", refreshed ? "refreshed" : "refresh failed", refreshed ? theme.success : theme.error)
        }
        if let retry = attempt.retry {
            let status = switch retry.status {
            case .waiting: "waiting"
            case .done: "done"
            case .cancelled: "cancelled"
            }
            field("retry", "after \(LogPaneFormat.countdown(retry.delay)) (\(status)): \(retry.reason)", theme.warning)
        }
        if let declined = attempt.declined { field("no retry", declined, theme.muted) }
        if let scripts = attempt.scripts {
            heading("Scripts" + (scripts.testSummary.map { " · " + $0 } ?? ""))
            for test in scripts.tests {
                let mark = test.passed ? "✓ " : "✗ "
                let text = mark + test.name + (test.message.isEmpty ? "" : ": " + test.message)
                lines.append(StyledLine("  " + text, style: test.passed ? theme.success : theme.error))
            }
            for log in scripts.logs { lines.append(StyledLine("  log: " + log, style: theme.muted)) }
            if let error = scripts.error {
                lines.append(StyledLine("  " + error.description, style: theme.error))
            }
        }
        heading("Request headers")
        lines += headerLines(attempt.requestHeaders, theme: theme)
        if case .response(_, let headers) = attempt.outcome {
            heading("Response headers")
            lines += headerLines(headers, theme: theme)
        }
        return lines
    }

    private func headerLines(_ headers: HTTPHeaders, theme: Theme) -> [StyledLine] {
        guard !headers.fields.isEmpty else { return [StyledLine("  (none)", style: theme.muted)] }
        // Redacted again at drawing time: stored headers are redacted, this guards any other source.
        return headers.redacted().fields.map {
            StyledLine([Span("  " + $0.name + ": ", style: theme.jsonKey), Span($0.value, style: theme.text)])
        }
    }

    func renderDetail(_ attempt: LogAttempt, into buffer: inout Buffer, area: Rect, theme: Theme) {
        buffer.write("Attempt \(attempt.key.attempt) of \(attempt.key.request) · Esc back", x: area.x, y: area.y,
                     style: theme.muted, maxWidth: area.width)
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        let lines = detailLines(attempt, theme: theme)
        var scroll = detailScroll
        scroll.top = min(scroll.top, max(0, lines.count - body.height))
        TextView(lines: lines).render(into: &buffer, area: body, state: scroll)
    }
}

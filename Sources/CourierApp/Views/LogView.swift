import CourierTerminal
import Foundation

/// Draws the log: one row per attempt, retry, cancellation or cache decision.
enum LogView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect, focused: Bool) {
        let theme = state.theme
        let log = state.log
        let inner = Draw.block(&buffer, area, title: log.follow ? "Log" : "Log · paused", focused: focused,
                               theme: theme, number: 4)
        guard !inner.isEmpty else { return }
        if log.rows.isEmpty {
            buffer.write("Attempts, retries and timings appear here.", x: inner.x, y: inner.y, style: theme.muted,
                         maxWidth: inner.width)
            return
        }
        let selection = min(log.selection, log.rows.count - 1)
        let first = max(0, min(selection - inner.height + 1, log.rows.count - inner.height))
        let start = max(0, selection < first ? selection : first)
        for (offset, row) in log.rows[start...].prefix(inner.height).enumerated() {
            let y = inner.y + offset
            let runs = self.runs(row, theme: theme, zone: state.timeZone)
            if start + offset == selection && focused {
                Draw.highlightedRow(&buffer, runs.map(\.0).joined(), x: inner.x, y: y, width: inner.width,
                                    style: theme.selection)
            } else {
                Draw.runs(&buffer, runs, x: inner.x, y: y, maxWidth: inner.width)
            }
        }
    }

    /// `HH:mm:ss` on the 24-hour clock, in local time.
    static func clock(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    static func runs(_ row: LogRow, theme: Theme, zone: TimeZone) -> [(String, Style)] {
        let time = (clock(row.started, in: zone) + " ", theme.muted)
        let request = ("\(row.method) \(row.path) #\(row.attempt) ", theme.method(row.method))
        let duration = row.duration.map { "  " + Draw.duration($0) } ?? ""
        switch row.outcome {
        case .inFlight: return [time, request, ("…", theme.warning)]
        case .status(let code): return [time, request, ("\(code)", theme.status(code)), (duration, theme.muted)]
        case .failed(let kind, let message): return [time, request, ("\(kind): \(message)", theme.error), (duration, theme.muted)]
        case .retry(let reason, let delay):
            return [time, ("  ↻ retry after \(Draw.duration(delay)): \(reason)", theme.warning)]
        case .cancelled(let superseded):
            let style = theme.muted.with(.dim)
            return [(time.0, style), (request.0, style), (superseded ? "superseded" : "cancelled", style)]
        case .cache(let decision): return [time, ("  cache: ", theme.muted), (decision, theme.cache(decision))]
        }
    }
}

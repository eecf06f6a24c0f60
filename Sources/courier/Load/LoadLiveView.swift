import CourierCollections
import CourierSecurity
import Foundation

/// `courier load`'s live view on a terminal: one block on standard error, redrawn a few times a second with
/// the rate, the statuses, a small latency histogram and the errors so far. Nothing when standard error is
/// not a terminal.
struct LoadLiveView: Sendable {
    let tally: LoadTally

    /// Whether there is a terminal to draw on.
    static var available: Bool { isatty(STDERR_FILENO) == 1 }

    /// Redraws until cancelled, then leaves the last block in place.
    func run() async {
        let clock = ContinuousClock()
        let start = clock.now
        var drawn = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let lines = Self.lines(tally.snapshot, elapsed: clock.now - start)
            // Back to the top of the last block, clear it, draw the new one.
            var text = drawn > 0 ? "\u{1B}[\(drawn)A\u{1B}[J" : ""
            text += lines.map { Sanitizer.escaped($0) }.joined(separator: "\n") + "\n"
            FileHandle.standardError.write(Data(text.utf8))
            drawn = lines.count
        }
        if drawn > 0 { FileHandle.standardError.write(Data("\u{1B}[\(drawn)A\u{1B}[J".utf8)) }
    }

    /// The block for `snapshot`, `elapsed` into the run.
    static func lines(_ snapshot: LoadTally.Snapshot, elapsed: Duration) -> [String] {
        let seconds = max(elapsed.milliseconds / 1000, 0.001)
        var lines = [String(format: "%d requests in %.1f s  %.1f req/s", snapshot.requests, seconds,
                            Double(snapshot.requests) / seconds)]
        lines.append("statuses: " + LoadSummary.counts(snapshot.statuses.map { (String($0.key), $0.value) }))
        if !snapshot.errors.isEmpty {
            lines.append("errors: " + LoadSummary.counts(snapshot.errors.map { ($0.key, $0.value) }))
        }
        let columns = snapshot.latency.columns(8)
        let most = columns.map(\.count).max() ?? 0
        for column in columns {
            let width = most > 0 ? Int(Double(column.count) / Double(most) * 30) : 0
            let label = "≤ " + LoadSummary.milliseconds(column.upTo)
            lines.append(label.padding(toLength: 12, withPad: " ", startingAt: 0)
                             + String(repeating: "█", count: width) + " \(column.count)")
        }
        return lines
    }
}

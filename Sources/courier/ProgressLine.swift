import CourierHTTP
import Foundation
import Synchronization

/// A one-line download progress report on standard error (bytes, rate, expected size when the
/// server sent Content-Length), redrawn in place at most `interval` apart and erased at the end.
/// Only for a terminal: a pipe or a file would collect every redraw.
final class ProgressLine: Sendable {
    /// Bodies smaller than this finish too soon for a progress line to help.
    static let threshold = 1 << 20
    /// About ten redraws a second.
    static let interval = Duration.milliseconds(100)
    /// Erases the line: carriage return, then ANSI "erase to the end of the line".
    static let erase = "\r\u{1B}[K"

    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drawn = false
    }

    private let state = Mutex(State())
    private let write: @Sendable (String) -> Void
    private let isSuppressed: @Sendable () -> Bool

    /// `isSuppressed` is asked before each redraw (records streaming to the same terminal win).
    init(isSuppressed: @escaping @Sendable () -> Bool = { false },
         write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.isSuppressed = isSuppressed
        self.write = write
    }

    /// A progress line when standard error is a terminal and the output is for people; else nil.
    static func forTerminal(json: Bool, isSuppressed: @escaping @Sendable () -> Bool) -> ProgressLine? {
        guard !json, isatty(STDERR_FILENO) == 1 else { return nil }
        return ProgressLine(isSuppressed: isSuppressed)
    }

    /// Called by the transport as bytes arrive; redraws when the last redraw is old enough.
    func update(_ progress: TransferProgress) {
        guard progress.received >= Self.threshold || (progress.expected ?? 0) >= Self.threshold else { return }
        guard !isSuppressed() else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            if let last = state.lastDraw, now - last < Self.interval { return }
            state.lastDraw = now
            state.drawn = true
            write(Self.erase + Self.text(progress))
        }
    }

    /// Erases the line, if one was drawn, so the response output starts on a clean line.
    func finish() {
        state.withLock { state in
            guard state.drawn else { return }
            state.drawn = false
            write(Self.erase)
        }
    }

    /// `received 12.5 MB of 50.0 MB (25%)  41.2 MB/s`, or without the total when it is unknown.
    static func text(_ progress: TransferProgress) -> String {
        var text = "received \(size(progress.received))"
        if let expected = progress.expected, expected > 0 {
            let percent = min(100, progress.received * 100 / expected)
            text += " of \(size(expected)) (\(percent)%)"
        }
        let seconds = Double(progress.elapsed.components.seconds)
            + Double(progress.elapsed.components.attoseconds) / 1e18
        if seconds > 0 { text += "  \(size(Int(Double(progress.received) / seconds)))/s" }
        return text
    }

    /// Bytes in B, kB, MB or GB (powers of 1024, one decimal).
    static func size(_ bytes: Int) -> String {
        let units = ["B", "kB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}

import CourierBody
import CourierSecurity
import Foundation
import Synchronization

/// Writing to the standard streams. Every line passes the sanitiser on its way out, so text a server or
/// a file supplied (a close reason, a request name, a malformed line quoted in an error) can never drive
/// the terminal, even where the code that built the line forgot; JSON output is escaped before it gets
/// here (`Sanitizer.escapedJSON`), and text that is already safe passes unchanged.
enum Console {
    static func out(_ text: String) {
        if let lane = elsewhere() { return lane.hand { out(text) } }
        var line = Sanitizer.escaped(text) + "\n"
        line.withUTF8 { emit($0, newline: false) }
    }

    /// `out` for a line written as bytes (`TextLines`, `JSONWriter`): checked and escaped in place, no String made.
    static func out(bytes: [UInt8]) {
        if let lane = elsewhere() { return lane.hand { out(bytes: bytes) } }
        var line = bytes
        Sanitizer.escape(&line, from: 0)
        line.withUnsafeBufferPointer { emit($0, newline: true) }
    }

    /// `out` for text written as lines of bytes.
    static func out(_ lines: TextLines) { out(bytes: lines.bytes) }

    /// Writes a sanitised line (and a newline after it when `newline`), batched or at once.
    private static func emit(_ line: UnsafeBufferPointer<UInt8>, newline: Bool) {
        let batched = batch.withLock { batch in
            guard batch != nil else { return false }
            batch?.bytes.append(contentsOf: line)
            if newline { batch?.bytes.append(0x0A) }
            let now = ContinuousClock.now
            if batch!.bytes.count >= batchSize || now - batch!.written >= batchAge { batch?.write(at: now) }
            if !batch!.bytes.isEmpty && !batch!.flushScheduled {
                batch?.flushScheduled = true
                scheduleFlush()
            }
            return true
        }
        guard !batched else { return }
        var data = Data(line)
        if newline { data.append(0x0A) }
        FileHandle.standardOutput.write(data)
    }

    /// Lines never wait in a batch longer than `batchAge`: a run whose next request takes a minute still shows
    /// the last response now, in a CI log read through `tee` and in a file a killed run leaves behind.
    private static func scheduleFlush() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(batchAgeMilliseconds)) {
            batch.withLock { batch in
                batch?.flushScheduled = false
                batch?.write(at: .now)
            }
        }
    }

    /// Standard error gets what standard output has batched first, so the two keep their order in one file.
    static func error(_ text: String) {
        if let lane = elsewhere() { return lane.hand { error(text) } }
        flush()
        FileHandle.standardError.write(Data((Sanitizer.escaped(text) + "\n").utf8))
    }

    /// Lines `out` collected for standard output, and when it last wrote.
    private struct Batch {
        var bytes: [UInt8] = []
        var written = ContinuousClock.now
        /// Whether a flush is due within `batchAge` (see `scheduleFlush`).
        var flushScheduled = false

        mutating func write(at now: ContinuousClock.Instant) {
            if !bytes.isEmpty { FileHandle.standardOutput.write(Data(bytes)) }
            bytes.removeAll(keepingCapacity: true)
            written = now
        }
    }

    /// While batching: written when it reaches `batchSize`, when a line comes `batchAge` after the last write,
    /// at most `batchAge` after a line came (a slow run's reader sees each response as it comes), when `error`
    /// writes, and at `flush`. Nil (the
    /// default) writes each line at once.
    private static let batch = Mutex<Batch?>(nil)
    private static let batchSize = 64 << 10
    private static let batchAgeMilliseconds = 50
    private static let batchAge = Duration.milliseconds(batchAgeMilliseconds)

    /// From now on `out` writes in batches, as C's standard output does unless it is a terminal (whose reader
    /// sees each line as it comes): `courier run` prints thousands of responses, and a `write` for each cost
    /// more than writing its lines.
    static func batchOutput() {
        guard isatty(STDOUT_FILENO) == 0 else { return }
        batch.withLock { $0 = $0 ?? Batch() }
    }

    /// Writes what `out` has batched (after what the output lane still holds).
    static func flush() {
        if let lane = elsewhere() { lane.drain() }
        batch.withLock { batch in batch?.write(at: .now) }
    }

    /// The output lane `courier run` prints through while it sends (see `OutputLane`), if any.
    private static let lane = Mutex<OutputLane?>(nil)

    /// The lane, when there is one and the caller is not on it: what the caller says must wait its turn there.
    private static func elsewhere() -> OutputLane? {
        guard let current = lane.withLock({ $0 }), !current.isCurrent else { return nil }
        return current
    }

    /// Runs `body` with every line said meanwhile written on a lane of its own (see `OutputLane`), then waits
    /// for the lane to finish.
    static func printingOnALane<Result>(_ body: () throws -> Result) rethrows -> Result {
        let opened = OutputLane()
        lane.withLock { $0 = opened }
        defer {
            opened.drain()
            lane.withLock { $0 = nil }
            opened.close()
        }
        return try body()
    }

    /// Runs `work` on the output lane when there is one (after all that was said before), else at once: the
    /// printing of a finished request, which the thread that sends need not wait for.
    static func whenItsTurnComes(_ work: @escaping @Sendable () -> Void) {
        if let lane = elsewhere() { lane.hand(work) } else { work() }
    }

    /// A failure, on standard error with the one prefix every command uses: `Error: what went wrong`.
    static func fail(_ message: String) { error("Error: " + message) }
    /// Says, on standard error, that servers' certificates are not checked and why (`--insecure`, an
    /// environment's `verifyHostCertificate: false`): one wording wherever verification was turned off.
    static func warnUnverified(because reason: String) {
        error("Warning: TLS certificates are not verified (\(reason)); anyone between you and the server "
              + "can read and change the exchange")
    }
}

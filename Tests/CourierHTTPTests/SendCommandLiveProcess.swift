import Foundation
import Synchronization

/// Bytes a running process has written so far, appended from the pipe's reader thread.
final class LiveOutput: Sendable {
    private let data = Mutex(Data())

    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }
}

/// A `courier` process whose standard output and error are read while it runs, so a test can see
/// what it printed before it ended, and sample its memory from /proc.
final class LiveCourier {
    let process = Process()
    let stdout = LiveOutput()
    let stderr = LiveOutput()
    private let outPipe = Pipe()
    private let errPipe = Pipe()

    /// Starts `courier ARGUMENTS`, or another program (`executable`) that runs it.
    init(_ arguments: [String], executable: URL? = nil) throws {
        guard let executable = executable ?? CourierProcess.executable else { throw POSIXError(.ENOENT) }
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        for (pipe, output) in [(outPipe, stdout), (errPipe, stderr)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let chunk = handle.availableData
                if !chunk.isEmpty { output.append(chunk) }
            }
        }
        try process.run()
    }

    /// Polls (every 10 ms, up to `limit`) until `condition` holds; false when it never did.
    func waitFor(limit: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Waits for the exit (killing the process after `limit`), drains the pipes and returns the status.
    @discardableResult
    func finish(limit: Duration = .seconds(30)) async throws -> Int32 {
        _ = try await waitFor(limit: limit) { !process.isRunning }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        for (pipe, output) in [(outPipe, stdout), (errPipe, stderr)] {
            pipe.fileHandleForReading.readabilityHandler = nil
            if let rest = try? pipe.fileHandleForReading.readToEnd() { output.append(rest) }
        }
        return process.terminationStatus
    }

    /// The process's peak resident set so far (VmHWM), in bytes; nil once it has exited.
    var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
                .flatMap({ Int($0) }) else { return nil }
        return kilobytes * 1024
    }
}

import Foundation

/// Runs the built `courier` under GNU time (Debian package `time`) to learn its peak resident memory. Not
/// `ru_maxrss` from our own `wait4`: posix_spawn starts a child in this process's memory (vfork), and
/// Linux then reports this test process's peak as the child's; GNU time forks from a small process, so
/// the figure it prints is courier's own.
public enum PeakMemory {
    /// Runs `courier ARGUMENTS` in `folder` and returns what it left behind with its peak RSS in bytes
    /// (0 when GNU time printed nothing).
    public static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
                           limit: Duration = .seconds(600)) async throws -> (result: ChildResult, peakBytes: Int) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("courier-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/time"),
                                                ["-f", "%M", "-o", report.path, CourierCLI.executable.path] + arguments,
                                                in: folder, environment: CourierCLI.baseEnvironment.merging(environment) { $1 },
                                                limit: limit)
        // GNU time prints the peak in kilobytes on the last line (after a note when the command failed).
        let printed = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        let kilobytes = printed.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return (result, kilobytes * 1024)
    }
}

import Foundation

/// Runs one test of the running test binary in a child process of its own, for a test that changes or
/// measures something process-wide (signal handlers, peak memory) and must not share the process with
/// the tests running beside it.
///
/// The pair: the parent test calls `run(_:)` with the name of a second test function; that function
/// starts with `guard TestInOwnProcess.isChild(name) else { return }` and does the work, so in an ordinary
/// run it passes at once, and in the child it is the only test that runs.
public enum TestInOwnProcess {
    static let variable = "COURIER_TEST_OWN_PROCESS"

    /// The running test binary.
    public static var testBinary: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
    }

    /// The shell words that run the test function `name` as the child (for a tmux pane's command).
    public static func command(_ name: String, mode: String = "1") -> String {
        "env \(variable)=\(name):\(mode) SWIFT_BACKTRACE=enable=no '\(testBinary.path)' "
            + "--testing-library swift-testing --filter \(name)"
    }

    /// True in the child started for the test function `name`.
    public static func isChild(_ name: String) -> Bool { mode(name) != nil }

    /// The mode the child for `name` was started with; nil in any other process.
    public static func mode(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[variable] else { return nil }
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        return parts.first == name ? (parts.count > 1 ? parts[1] : "") : nil
    }

    /// Runs the test function `name` in a child and waits for it (killed after `limit`). The result's status
    /// is 0 when the child's expectations all held; its output holds the child's test report.
    public static func run(_ name: String, mode: String = "1", limit: Duration = .seconds(600)) async throws -> ChildResult {
        let child = try ChildProcess(testBinary, ["--testing-library", "swift-testing", "--filter", name],
                                     environment: [variable: "\(name):\(mode)", "SWIFT_BACKTRACE": "enable=no"])
        let status = await child.finish(limit: limit)
        return ChildResult(status: status ?? -1, stdoutData: child.stdout.data, stderrData: child.stderr.data)
    }
}

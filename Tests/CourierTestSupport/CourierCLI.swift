import Foundation

/// The built `courier` executable, run as a child process the way a user runs it.
public enum CourierCLI {
    /// The package root, derived from this file's path (Tests/CourierTestSupport/CourierCLI.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The debug binary `swift build --build-tests` leaves behind, or COURIER_TEST_BINARY (to run the same
    /// tests against another build, an older one, and see a test fail first).
    public static let executable: URL = ProcessInfo.processInfo.environment["COURIER_TEST_BINARY"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    } ?? packageRoot.appendingPathComponent(".build/debug/courier")

    /// True when the binary exists (a suite can be `.enabled(if:)` on it).
    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Where every run keeps its state (cookie jars, history, tokens, the redirect ledger) unless the test names
    /// its own: a folder of this test process, so no test reads what another process's tests, or the machine's
    /// user, left in ~/.local/state (a cookie one test was sent went out with the next test's requests).
    public static let stateFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-test-state-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// What every run adds to the test's environment (before the caller's own): plain output to compare, and
    /// a state folder of the test process's own.
    public static let baseEnvironment = ["NO_COLOR": "1", "XDG_STATE_HOME": stateFolder.path]

    /// Runs `courier ARGUMENTS` in `folder` with `input` on standard input and `environment` added to the
    /// test's; `whileRunning` gets the child (to signal it, or to wait for its output). Killed after `limit`,
    /// which then reads as status -1: generous, as a loaded machine runs many at once.
    public static func run(_ arguments: [String], in folder: URL? = nil, input: String? = nil,
                           environment: [String: String] = [:], limit: Duration = .seconds(300),
                           whileRunning: (@Sendable (ChildProcess) async throws -> Void)? = nil) async throws -> ChildResult {
        try await ChildProcess.run(executable, arguments, in: folder, input: input.map { .data(Data($0.utf8)) } ?? .none,
                                   environment: baseEnvironment.merging(environment) { $1 }, limit: limit, whileRunning: whileRunning)
    }

    /// The JSON object printed by `--json`.
    public static func json(_ text: String) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// Runs `courier ARGUMENTS` like `run`, sampling its peak resident set (VmHWM, a high-water mark, every
    /// 10 ms) while it runs; the result and the peak in bytes. Not `wait4`'s rusage: exec keeps the old memory's
    /// high-water mark, and a child started with posix_spawn shares the test process's memory until it execs,
    /// so that figure is the test process's as much as the child's.
    public static func runSamplingPeakMemory(_ arguments: [String], input: ChildProcess.Input = .none,
                                             limit: Duration = .seconds(120)) async throws -> (ChildResult, peak: Int) {
        let child = try start(arguments, input: input)
        let (status, peak) = await child.finishSamplingPeakMemory(limit: limit)
        return (ChildResult(status: status ?? -1, stdoutData: child.stdout.data, stderrData: child.stderr.data), peak)
    }

    /// Starts `courier ARGUMENTS` and returns at once, for a test that reads its output while it runs.
    public static func start(_ arguments: [String], in folder: URL? = nil, input: ChildProcess.Input = .none,
                             environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(executable, arguments, environment: baseEnvironment.merging(environment) { $1 }, in: folder,
                         input: input)
    }
}

extension ChildProcess {
    /// Runs `program ARGUMENTS` to its end (killing it after `limit`) and returns what it left behind. At
    /// most twice as many run at once as there are cores; the others wait for a slot first.
    public static func run(_ program: URL, _ arguments: [String], in folder: URL? = nil, input: Input = .none,
                           environment: [String: String] = [:], limit: Duration = .seconds(300),
                           whileRunning: (@Sendable (ChildProcess) async throws -> Void)? = nil) async throws -> ChildResult {
        await ChildSlots.shared.acquire()
        let child: ChildProcess
        do {
            child = try ChildProcess(program, arguments, environment: environment, in: folder, input: input)
        } catch {
            await ChildSlots.shared.release()
            throw error
        }
        if let whileRunning {
            do { try await whileRunning(child) } catch {
                child.signalGroup(SIGKILL)
                _ = await child.finish(limit: limit)
                await ChildSlots.shared.release()
                throw error
            }
        }
        let status = await child.finish(limit: limit) ?? -1
        await ChildSlots.shared.release()
        return ChildResult(status: status, stdoutData: child.stdout.data, stderrData: child.stderr.data)
    }
}

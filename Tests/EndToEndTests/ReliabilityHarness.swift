import CourierTestSupport
import Foundation
import Testing

/// Shared helpers of the reliability tests: the built `courier` binary, child processes with bounded
/// waits, temporary folders, `--json` parsing and the tools some tests need (tmux, openssl).
enum Reliability {
    /// The package root, derived from this file's path (Tests/EndToEndTests/ReliabilityHarness.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The binary under test: CourierCLI picks it (COURIER_TEST_BINARY or the debug build).
    static let courier = CourierCLI.executable
    static var hasCourier: Bool { FileManager.default.isExecutableFile(atPath: courier.path) }
    static var hasTmux: Bool { tool("tmux") != nil && hasCourier }
    static var hasOpenSSL: Bool { tool("openssl") != nil }
    /// Longer runs (kill loops, bigger loads) only when asked for.
    static var longTests: Bool { ProcessInfo.processInfo.environment["COURIER_LONG_TESTS"] == "1" }

    /// The full path of a program on PATH, or nil.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    // MARK: Folders

    /// A new empty folder under the system's temporary folder; the caller removes it.
    static func temporaryFolder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.resolvingSymlinksInPath()
    }

    /// Every regular file below `folder`, recursively.
    static func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    // MARK: Processes

    /// What a finished child process left behind.
    struct ProcessResult {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
        /// The single JSON object `--json` prints, or nil.
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: stdout)) as? [String: Any] }
    }

    /// Runs `courier` with `arguments` and awaits it (bounded), its per-user files in a scratch folder.
    static func runCourier(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
                           limit: Double = 300) async throws -> ProcessResult {
        try await run(courier, arguments, environment: environment, in: folder, limit: limit)
    }

    /// Runs a program and awaits its exit (through `ChildProcess`: no thread blocks); it is killed when it
    /// takes longer than `limit` seconds, and the status then reads -1.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
                    limit: Double = 300) async throws -> ProcessResult {
        let scratch = try temporaryFolder("proc")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Courier's per-user files (history, cache) go to the scratch folder unless the caller says otherwise.
        var environment = environment
        for name in ["XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"] where environment[name] == nil {
            environment[name] = scratch.appendingPathComponent(name).path
        }
        let result = try await ChildProcess.run(program, arguments, in: folder, environment: environment,
                                                limit: .seconds(limit))
        return ProcessResult(status: result.status, stdout: result.stdoutData, stderr: result.stderrData)
    }

    /// Checks `condition` until it holds or `limit` seconds pass (generous: a parallel run on two cores is
    /// slow), sleeping asynchronously between checks; for state that has no event to await (a file another
    /// process writes, a pid in /proc).
    static func eventually(limit: Double = 60, _ condition: () async -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(max(limit, 60))
        while ContinuousClock.now < end {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }

    /// A TCP port on 127.0.0.1 that nothing listens on, for the rest of the test run (`LoopbackSocket.closedPort`).
    static func closedPort() -> UInt16 { LoopbackSocket.closedPort() }
}

/// The attempts of one `courier send --json` answer, reduced to what the fault matrix asserts.
struct ReliabilityOutcome {
    var errorKind: String?
    var status: Int?
    var attempts: [[String: Any]]

    init(_ result: Reliability.ProcessResult) {
        let object = result.json ?? [:]
        errorKind = (object["error"] as? [String: Any])?["kind"] as? String
        status = object["status"] as? Int
        attempts = object["attempts"] as? [[String: Any]] ?? []
    }
}

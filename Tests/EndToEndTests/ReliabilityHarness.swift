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

    /// Runs `courier` with `arguments` and waits (bounded) for it; output goes through files so a
    /// chatty child can never block on a full pipe.
    static func runCourier(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
                           limit: Double = 60) throws -> ProcessResult {
        try run(courier, arguments, environment: environment, in: folder, limit: limit)
    }

    /// Runs a program and waits up to `limit` seconds; it is killed when it takes longer.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
                    limit: Double = 60) throws -> ProcessResult {
        let scratch = try temporaryFolder("proc")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        // Courier's per-user files (history, cache) go to the scratch folder unless the caller says otherwise.
        var environment = environment
        for name in ["XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"] where environment[name] == nil {
            environment[name] = scratch.appendingPathComponent(name).path
        }
        let child = try ReliabilityChild(program, arguments, environment: environment, in: folder,
                                         stdout: outURL.path, stderr: errURL.path)
        let ended = waitFor(limit: limit) { child.poll() != nil }
        if !ended { child.kill(SIGKILL) }
        let status = child.wait()
        return ProcessResult(status: ended ? status : -1,
                             stdout: (try? Data(contentsOf: outURL)) ?? Data(),
                             stderr: (try? Data(contentsOf: errURL)) ?? Data())
    }

    /// Polls `condition` every 20 ms for up to `limit` seconds; true once it holds.
    @discardableResult
    static func waitFor(limit: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Async flavour of `waitFor`, for conditions checked from async tests.
    static func eventually(limit: Double = 10, _ condition: () async -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }

    /// A TCP port on 127.0.0.1 that nothing listens on (bound, then released).
    static func closedPort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }
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

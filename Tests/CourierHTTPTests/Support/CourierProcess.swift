import Foundation

/// Runs the built `courier` executable, capturing its output in temporary files (no pipe can fill up).
enum CourierProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary next to the test bundle, or in the package's .build/debug.
    static var executable: URL? {
        let fileManager = FileManager.default
        // COURIER_TEST_BINARY runs the same tests against another build (an older one, to see a test fail first).
        if let path = ProcessInfo.processInfo.environment["COURIER_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let bundle = Bundle.main.bundleURL
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [bundle.appendingPathComponent("courier"),
                          bundle.deletingLastPathComponent().appendingPathComponent("courier"),
                          packageRoot.appendingPathComponent(".build/debug/courier")]
        return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `courier ARGUMENTS`; `whileRunning` gets the process to signal it. Killed after 30 s.
    static func run(_ arguments: [String], whileRunning: (@Sendable (Process) async -> Void)? = nil) async throws -> Result {
        guard let executable else { throw POSIXError(.ENOENT) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        try process.run()
        if let whileRunning { await whileRunning(process) }
        let end = Date().addingTimeInterval(30)
        while process.isRunning && Date() < end { try await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// The JSON object printed by `--json`.
    static func json(_ text: String) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}

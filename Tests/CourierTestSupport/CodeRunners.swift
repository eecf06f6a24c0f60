import Foundation

/// The programs the export tests run generated code with: Python (the test venv's, which has `requests`),
/// Node and swiftc, each as a child process through `ChildProcess`.
public enum CodeRunners {
    /// `.build/test-venv/bin/python3`, which `make test` creates with `requests` in it.
    public static let testVenvPython = CourierCLI.packageRoot.appendingPathComponent(".build/test-venv/bin/python3")

    /// The Python to run exported snippets with: the test venv's, else the one on PATH (which may lack
    /// `requests`: `pythonHasRequests` says).
    public static var python: (program: URL, arguments: [String]) {
        FileManager.default.isExecutableFile(atPath: testVenvPython.path)
            ? (testVenvPython, []) : (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }

    /// Runs `python3 ARGUMENTS`.
    public static func runPython(_ arguments: [String], in folder: URL? = nil,
                                 environment: [String: String] = [:]) async throws -> ChildResult {
        try await ChildProcess.run(python.program, python.arguments + arguments, in: folder, environment: environment)
    }

    /// Whether that Python can import `requests`; when not, the message says how to get it.
    public static func pythonHasRequests() async throws -> String? {
        let check = try await runPython(["-c", "import requests"])
        return check.status == 0 ? nil
            : "python3 cannot import requests; `make test-venv` (part of `make test`) installs it in .build/test-venv"
    }

    /// Runs a program found on PATH (`node`, `swiftc`).
    public static func run(_ tool: String, _ arguments: [String], in folder: URL? = nil,
                           environment: [String: String] = [:],
                           limit: Duration = .seconds(600)) async throws -> ChildResult {
        try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, in: folder,
                                   environment: environment, limit: limit)
    }
}

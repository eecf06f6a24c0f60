import Foundation

/// A test server written in Python on packages the project does not write (Authlib, botocore), from
/// `Tests/Servers/NAME.py`, run by the test venv's Python (`make test-venv` installs what it imports). It
/// prints `listening on PORT` once it serves; `stop()` kills it.
public final class PythonServer: Sendable {
    public let port: UInt16
    public let child: ChildProcess

    /// Starts `Tests/Servers/NAME.py` and waits (up to a minute) for its port; `environment` is added to
    /// the test's.
    public init(_ name: String, environment: [String: String] = [:]) async throws {
        let script = CourierCLI.packageRoot.appendingPathComponent("Tests/Servers/\(name).py")
        let python = CodeRunners.python
        child = try ChildProcess(python.program, python.arguments + [script.path], environment: environment)
        let started = await child.stdout.wait(limit: .seconds(120)) { $0.contains("listening on ") && $0.contains("\n") }
        let line = child.stdout.text.split(separator: "\n").first { $0.hasPrefix("listening on ") }
        guard started, let port = line.flatMap({ UInt16($0.dropFirst("listening on ".count)) }) else {
            child.signalGroup(SIGKILL)
            throw PythonServerError(message: "\(name).py did not start: \(child.stderr.text.suffix(2000))")
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    public func stop() {
        guard child.isRunning else { return }
        child.signalGroup(SIGKILL)
    }

    /// Whether the test venv's Python can import `modules`; when not, the message says how to get them.
    public static func missing(_ modules: [String]) async throws -> String? {
        let check = try await CodeRunners.runPython(["-c", modules.map { "import \($0)" }.joined(separator: "; ")])
        return check.status == 0 ? nil
            : "python3 cannot import \(modules.joined(separator: ", ")); `make test-venv` (part of `make test`) "
                + "installs them in .build/test-venv"
    }
}

/// A Python test server that did not start.
public struct PythonServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

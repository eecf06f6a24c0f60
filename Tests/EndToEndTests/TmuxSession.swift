import CourierTestSupport
import Foundation

/// The explorer's end-to-end tests' view of a `TmuxServer`: one command in a detached session, driven with
/// keys and read back as text. `stop()` kills the server and everything in it.
final class TmuxSession: Sendable {
    let server: TmuxServer

    /// The package root, from this file's place in `Tests/EndToEndTests/`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The binary under test: the debug build, or COURIER_TEST_BINARY.
    static var binary: URL { CourierCLI.executable }

    /// Starts `command` (run by the shell in `directory`) in a `width`×`height` window.
    init(command: String, directory: URL, width: Int = 120, height: Int = 40) async throws {
        server = try await TmuxServer(command: command, directory: directory, width: width, height: height)
    }

    /// Keys by tmux name (`Enter`, `Escape`, `C-s`, `j`), each followed by a short pause so the app
    /// reads them apart (an Escape followed at once by a key would read as Alt and that key).
    func keys(_ keys: String...) async throws {
        for key in keys {
            try await server.send([key])
            try await Task.sleep(for: .milliseconds(key == "Escape" ? 300 : 50))
        }
    }

    /// Literal text, as typed.
    func type(_ text: String) async throws {
        try await server.type(text)
        try await Task.sleep(for: .milliseconds(50))
    }

    /// The screen as text.
    func screen() async -> String { await server.screen() }

    /// The screen with the escape sequences that set its colours and attributes, as tmux keeps them.
    func screenWithEscapes() async -> String { await server.screenWithEscapes() }

    /// Writes `text` to the pane's terminal as if another program had printed there, behind the app's back.
    func scribble(_ text: String) async throws {
        let tty = await server.format("pane_tty")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tty))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Resizes the window, as a user dragging the terminal would.
    func resize(width: Int, height: Int) async throws {
        try await server.resize(width: width, height: height)
    }

    /// Reads the screen until `condition` holds, up to `timeout` seconds (generous: a parallel run on two
    /// cores is slow); whether it did and the last screen.
    @discardableResult
    func waitFor(timeout: Double = 60, _ condition: (String) -> Bool) async -> (Bool, String) {
        await server.waitFor(limit: .seconds(timeout), condition)
    }

    /// Kills the program in the pane, then the tmux server.
    func stop() { server.stop() }

    /// Runs a program found on PATH to its end, awaited; its status and what it printed (standard output,
    /// then standard error).
    static func spawn(_ arguments: [String]) async throws -> (Int32, String) {
        let program = URL(fileURLWithPath: Reliability.tool(arguments[0]) ?? arguments[0])
        let result = try await ChildProcess.run(program, Array(arguments.dropFirst()))
        return (result.status, result.stdout + result.stderr)
    }
}

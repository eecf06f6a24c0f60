import CourierTestSupport
import Foundation

/// A tmux server of its own (a unique socket) running one command in a detached session, driven with
/// `send-keys` and read with `capture-pane`. `stop()` kills the server and everything in it.
final class TmuxSession {
    let socket = "courier-test-\(UUID().uuidString)"

    /// The package root, from this file's place in `Tests/EndToEndTests/`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The binary under test: CourierCLI picks it (COURIER_TEST_BINARY or the debug build).
    static let binary = CourierCLI.executable

    enum Failure: Error, CustomStringConvertible {
        case tmuxFailed(String)
        var description: String {
            switch self { case .tmuxFailed(let message): "tmux: \(message)" }
        }
    }

    /// Starts `command` (run by the shell in `directory`) in a `width`×`height` window.
    init(command: String, directory: URL, width: Int = 120, height: Int = 40) throws {
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-c", directory.path, command])
    }

    /// Keys by tmux name (`Enter`, `Escape`, `C-s`, `j`), each followed by a short pause so the app
    /// reads them apart (an Escape followed at once by a key would read as Alt and that key).
    func keys(_ keys: String...) throws {
        for key in keys {
            try tmux(["send-keys", "-t", "0", key])
            Thread.sleep(forTimeInterval: key == "Escape" ? 0.3 : 0.05)
        }
    }

    /// Literal text, as typed.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", text])
        Thread.sleep(forTimeInterval: 0.05)
    }

    /// The screen as text.
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "0"]) }

    /// The screen with the escape sequences that set its colours and attributes, as tmux keeps them.
    func screenWithEscapes() throws -> String { try tmux(["capture-pane", "-e", "-p", "-t", "0"]) }

    /// Writes `text` to the pane's terminal as if another program had printed there, behind the app's back.
    func scribble(_ text: String) throws {
        let tty = try tmux(["display-message", "-p", "-t", "0", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tty))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Resizes the window, as a user dragging the terminal would.
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Polls the screen up to `timeout` until `condition` holds; returns whether it did and the last screen.
    @discardableResult
    func waitFor(timeout: TimeInterval = 10, _ condition: (String) -> Bool) throws -> (Bool, String) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? screen()) ?? ""
            if condition(last) { return (true, last) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (false, last)
    }

    /// Kills the program in the pane, then the tmux server. The program is killed by its pid first:
    /// a process whose terminal disappears must not be left behind by a failed test.
    func stop() {
        if let pid = try? tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]),
           let value = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0 {
            kill(value, SIGKILL)
        }
        _ = try? tmux(["kill-server"])
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let (status, text) = try Self.spawn(["tmux", "-L", socket, "-f", "/dev/null"] + arguments)
        if status != 0 && arguments.first != "kill-server" {
            throw Failure.tmuxFailed("\(arguments.joined(separator: " ")): \(text)")
        }
        return text
    }

    /// Runs a program found on PATH and waits for it with `waitpid`. Output goes to a file, not a pipe:
    /// the tmux server forks from the first client and would hold a pipe open for ever.
    static func spawn(_ arguments: [String]) throws -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The test runner's threads block signals, and a spawned process inherits the mask: tmux and
        // the explorer would then ignore SIGHUP and SIGTERM. Start them with none blocked, defaults set.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure.tmuxFailed("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), text)
    }
}

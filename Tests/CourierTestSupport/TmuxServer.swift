import Foundation
import Synchronization

/// A tmux server of the test's own (a unique socket name, no configuration) running one detached session.
/// Every tmux command is a child awaited through `ChildProcess`, so waiting never blocks a thread and
/// parallel tests never share a server. `stop()` is synchronous, for a `defer`: it kills the pane's program
/// and the server by pid, so a failed test leaves nothing behind.
public final class TmuxServer: Sendable {
    /// The socket name (`tmux -L`), unique to this server.
    public let socket = "courier-test-\(UUID().uuidString)"
    /// The session's name, the target of every command.
    public let target: String
    private let serverPID: pid_t
    private let panePID: pid_t
    private let socketPath: String
    private let lastRead = Mutex("")

    public enum Failure: Error, CustomStringConvertible {
        case tmuxFailed(String)
        public var description: String {
            switch self { case .tmuxFailed(let message): "tmux: \(message)" }
        }
    }

    /// The tmux executable, from PATH; nil when it is not installed.
    public static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"])
            .map { URL(fileURLWithPath: $0).appendingPathComponent("tmux") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// True when tmux is installed.
    public static var isAvailable: Bool { executable != nil }

    /// Starts `command` (run by tmux's shell, in `directory` when given) in a detached `width`×`height` session.
    /// `options` are global options set before the command starts (`remain-on-exit on`...).
    public init(command: String, directory: URL? = nil, width: Int = 120, height: Int = 40,
                options: [(String, String)] = []) async throws {
        let target = "t"
        self.target = target
        let socket = self.socket
        // One client command chain: the options are in place before the command starts.
        var start = ["start-server"]
        for (name, value) in options { start += [";", "set-option", "-g", name, value] }
        // The test process's state folder unless the command names its own: no explorer a test starts writes
        // history or tokens into the machine user's ~/.local/state.
        start += [";", "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)",
                  "-e", "XDG_STATE_HOME=\(CourierCLI.stateFolder.path)"]
        if let directory { start += ["-c", directory.path] }
        start += [command]
        _ = try await Self.run(socket: socket, start)
        let facts = try await Self.run(socket: socket, ["display-message", "-p", "-t", target, "#{pid} #{pane_pid} #{socket_path}"])
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 2).map(String.init)
        let pids = facts.prefix(2).compactMap { pid_t($0) }
        guard facts.count == 3, pids.count == 2, pids.allSatisfy({ $0 > 1 }) else {
            _ = try? await Self.run(socket: socket, ["kill-server"])
            throw Failure.tmuxFailed("no server or pane pid: \(facts)")
        }
        socketPath = facts[2]
        (serverPID, panePID) = (pids[0], pids[1])
    }

    deinit { stop() }

    /// Runs a tmux command against this server and returns what it printed; throws when tmux fails.
    @discardableResult
    public func run(_ arguments: [String]) async throws -> String {
        try await Self.run(socket: socket, arguments)
    }

    /// The pane's text as shown now ("" when tmux cannot say).
    public func screen() async -> String {
        let text = (try? await run(["capture-pane", "-p", "-t", target])) ?? ""
        lastRead.withLock { $0 = text }
        return text
    }

    /// The screen as the last `screen()` read it: for a failure message, which cannot await.
    public var lastScreen: String { lastRead.withLock { $0 } }

    /// The pane's text with the escape sequences of its colours and attributes.
    public func screenWithEscapes() async -> String { (try? await run(["capture-pane", "-e", "-p", "-t", target])) ?? "" }

    /// A tmux format (`pane_title`, `alternate_on`...) of the pane, trimmed.
    public func format(_ name: String) async -> String {
        ((try? await run(["display-message", "-p", "-t", target, "#{\(name)}"])) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pid of the pane's first process (the shell or the program tmux started).
    public var panePid: pid_t { panePID }

    /// Keys by tmux name (`Enter`, `C-s`, `j`), in one command.
    public func send(_ keys: [String]) async throws {
        try await run(["send-keys", "-t", target] + keys)
    }

    /// Literal text, as typed.
    public func type(_ text: String) async throws {
        try await run(["send-keys", "-t", target, "-l", text])
    }

    /// Resizes the window, as a user dragging the terminal would.
    public func resize(width: Int, height: Int) async throws {
        try await run(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Reads the screen until `condition` holds or `limit` passes; whether it held, and the last screen.
    /// A terminal's contents change with no event to await, so this polls, asynchronously.
    @discardableResult
    public func waitFor(limit: Duration = .seconds(60), _ condition: (String) -> Bool) async -> (Bool, String) {
        let end = ContinuousClock.now + limit
        var last = ""
        while true {
            last = await screen()
            if condition(last) { return (true, last) }
            if ContinuousClock.now >= end { return (false, last) }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Checks `condition` until it holds or `limit` passes (for tmux formats and other state with no event).
    public func eventually(limit: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
        let end = ContinuousClock.now + limit
        while true {
            if await condition() { return true }
            if ContinuousClock.now >= end { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Kills the pane's program and what it started, then the server (which ends every other pane), and
    /// removes the socket. Signals only, no waiting: safe in a `defer` and in `deinit`.
    public func stop() {
        // The pane's first process leads its own process group (tmux made it a session leader).
        _ = kill(-panePID, SIGKILL)
        _ = kill(panePID, SIGKILL)
        _ = kill(serverPID, SIGTERM)
        unlink(socketPath)
    }

    /// Runs tmux on `socket` with `arguments`; its output, or an error with what it printed.
    private static func run(socket: String, _ arguments: [String]) async throws -> String {
        guard let executable else { throw Failure.tmuxFailed("tmux is not installed") }
        let child = try ChildProcess(executable, ["-L", socket, "-f", "/dev/null"] + arguments)
        let status = await child.finish(limit: .seconds(60))
        guard status == 0 else {
            throw Failure.tmuxFailed("\(arguments.joined(separator: " ")): status \(status.map(String.init) ?? "killed"), "
                                     + child.stderr.text + child.stdout.text)
        }
        return child.stdout.text
    }
}

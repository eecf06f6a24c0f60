import Foundation
import Testing
import CourierTerminal

/// A private tmux server (its own socket, no config) running one pane.
private final class TmuxSession {
    let folder: URL
    var socket: String { folder.appendingPathComponent("tmux.sock").path }

    init(command: String, width: Int = 80, height: Int = 24) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-terminal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The server outlives this call and keeps whatever output it inherited open: give it none.
        try run(["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", command],
                capture: false)
        try run(["set-option", "-w", "-t", "t", "remain-on-exit", "on"])
    }

    deinit {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs tmux with `arguments` and returns what it printed. Spawned directly and reaped with
    /// `waitpid`; output goes through a file, since the server a first call starts would hold a pipe open.
    @discardableResult
    func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let output = folder.appendingPathComponent("out-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture ? output : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["tmux", "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Test threads run with most signals blocked; a tmux server inheriting that mask would
        // never notice its panes exit or its own kill-server. Start it with a clean slate.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ) == 0 else { return "" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard capture else { return "" }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    var screen: String { (try? run(["capture-pane", "-p", "-t", "t"])) ?? "" }
    func format(_ name: String) -> String {
        ((try? run(["display-message", "-p", "-t", "t", "#{\(name)}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
    func keys(_ keys: String...) { _ = try? run(["send-keys", "-t", "t"] + keys) }
}

/// The curses backend for real, in tmux: this test binary re-runs itself as the pane's program.
@Suite(.serialized) struct TmuxTests {
    static let tmuxAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    private func childCommand(mode: String) -> String {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return "env COURIER_TERMINAL_CHILD=\(mode) SWIFT_BACKTRACE=enable=no '\(binary)' --testing-library swift-testing "
            + "--filter tmuxChildProgramWhenStartedByTheTmuxTests"
    }

    @Test(.enabled(if: tmuxAvailable))
    func screenKeysPasteResizeAndQuitWorkInsideTmux() throws {
        // Given the child program running in an 80×24 tmux pane
        let tmux = try TmuxSession(command: childCommand(mode: "interactive"))
        try #require(eventually { tmux.screen.contains("ready size: 80x24") })
        let screen = tmux.screen
        // Then wide characters, borders and defused escape sequences are on screen as text
        #expect(screen.contains("╭ Courier tmux check ─"))
        #expect(screen.contains("日本語 😀 wide"))
        #expect(screen.contains("␛]0;pwned␇␛]52;c;aGk=␇"))
        #expect(tmux.format("pane_title") != "pwned")
        #expect(tmux.format("alternate_on") == "1")
        // When keys are typed: Ctrl-C is a key, not a signal
        tmux.keys("C-c")
        #expect(eventually { tmux.screen.contains("last: key Ctrl-C") })
        tmux.keys("M-x")
        #expect(eventually { tmux.screen.contains("last: key Alt-x") })
        tmux.keys("Up")
        #expect(eventually { tmux.screen.contains("last: key ↑") })
        tmux.keys("BTab")
        #expect(eventually { tmux.screen.contains("last: key Shift-Tab") })
        // And text is pasted with bracketed paste
        try tmux.run(["set-buffer", "-b", "p", "GET /users 日本"])
        try tmux.run(["paste-buffer", "-p", "-b", "p", "-t", "t"])
        #expect(eventually { tmux.screen.contains("last: paste GET /users 日本") })
        // And the window is resized
        try tmux.run(["resize-window", "-t", "t", "-x", "100", "-y", "30"])
        #expect(eventually { tmux.screen.contains("ready size: 100x30") })
        // When q quits, the terminal is back to normal
        tmux.keys("q")
        #expect(eventually { tmux.format("pane_dead") == "1" })
        #expect(tmux.format("alternate_on") == "0")
    }

    @Test(.enabled(if: tmuxAvailable))
    func stopAndContinueHandTheTerminalBackAndRedraw() throws {
        // Given the program started from an interactive shell, as a user would
        let tmux = try TmuxSession(command: "bash --norc --noprofile -i")
        tmux.keys("-l", childCommand(mode: "interactive"))
        tmux.keys("Enter")
        try #require(eventually { tmux.screen.contains("ready size: 80x24") })
        let shell = try #require(Int32(tmux.format("pane_pid")).flatMap { $0 > 1 ? $0 : nil })
        // A pid of 0 would signal this whole process group: require a real one.
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        let pid = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        // When it is stopped (Ctrl-Z arrives as a key in raw mode, so the stop comes as a signal)
        kill(pid, SIGTSTP)
        // Then the shell has the terminal back, out of the program's screen
        #expect(eventually { tmux.format("alternate_on") == "0" && tmux.screen.contains("Stopped") })
        #expect(tmux.format("cursor_flag") == "1")
        // When the shell brings it back with fg, it re-enters and draws its whole screen again
        tmux.keys("fg", "Enter")
        #expect(eventually { tmux.format("alternate_on") == "1" && tmux.screen.contains("ready size: 80x24") })
        tmux.keys("x")
        #expect(eventually { tmux.screen.contains("last: key x") })
        tmux.keys("q")
        #expect(eventually { tmux.format("alternate_on") == "0" })
    }

    @Test(.enabled(if: tmuxAvailable), arguments: [SIGTERM, SIGHUP, SIGINT])
    func terminatingSignalsRestoreTheTerminal(signal: Int32) throws {
        let tmux = try TmuxSession(command: childCommand(mode: "interactive"))
        try #require(eventually { tmux.screen.contains("ready size: 80x24") })
        let pid = try #require(Int32(tmux.format("pane_pid")).flatMap { $0 > 1 ? $0 : nil })
        kill(pid, signal)
        #expect(eventually { tmux.format("pane_dead") == "1" })
        #expect(tmux.format("alternate_on") == "0")
        #expect(tmux.format("pane_dead_status") == "")  // killed by the signal, not a normal exit
    }

    @Test(.enabled(if: tmuxAvailable))
    func aCrashRestoresTheTerminalAndStillDiesOfTheSignal() throws {
        let tmux = try TmuxSession(command: childCommand(mode: "crash"))
        #expect(eventually { tmux.format("pane_dead") == "1" })
        #expect(tmux.format("alternate_on") == "0")
        #expect(tmux.format("pane_dead_status") == "")  // died of the signal, not a normal exit
    }
}

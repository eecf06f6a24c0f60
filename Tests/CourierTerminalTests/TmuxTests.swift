import Foundation
import Testing
import CourierTerminal
import CourierTestSupport

/// The curses backend for real, in tmux: this test binary re-runs itself as the pane's program.
@Suite(.serialized) struct TmuxTests {
    static let tmuxAvailable = TmuxServer.isAvailable

    /// A tmux server of the test's own, 80×24, whose dead panes stay readable (remain-on-exit).
    private static func start(_ command: String) async throws -> TmuxServer {
        try await TmuxServer(command: command, width: 80, height: 24, options: [("remain-on-exit", "on")])
    }

    private func childCommand(mode: String) -> String {
        TestInOwnProcess.command("tmuxChildProgramWhenStartedByTheTmuxTests", mode: mode)
    }

    @Test(.enabled(if: tmuxAvailable))
    func screenKeysPasteResizeAndQuitWorkInsideTmux() async throws {
        // Given the child program running in an 80×24 tmux pane
        let tmux = try await Self.start(childCommand(mode: "interactive"))
        defer { tmux.stop() }
        try #require(await eventually { await tmux.screen().contains("ready size: 80x24") })
        let screen = await tmux.screen()
        // Then wide characters, borders and defused escape sequences are on screen as text
        #expect(screen.contains("╭─ Courier tmux check ─"))
        #expect(screen.contains("日本語 😀 wide"))
        #expect(screen.contains("␛]0;pwned␇␛]52;c;aGk=␇"))
        #expect(await tmux.format("pane_title") != "pwned")
        #expect(await tmux.format("alternate_on") == "1")
        // When keys are typed: Ctrl-C is a key, not a signal
        try await tmux.send(["C-c"])
        #expect(await eventually { await tmux.screen().contains("last: key Ctrl-C") })
        try await tmux.send(["M-x"])
        #expect(await eventually { await tmux.screen().contains("last: key Alt-x") })
        try await tmux.send(["Up"])
        #expect(await eventually { await tmux.screen().contains("last: key ↑") })
        try await tmux.send(["BTab"])
        #expect(await eventually { await tmux.screen().contains("last: key Shift-Tab") })
        // And text is pasted with bracketed paste
        try await tmux.run(["set-buffer", "-b", "p", "GET /users 日本"])
        try await tmux.run(["paste-buffer", "-p", "-b", "p", "-t", tmux.target])
        #expect(await eventually { await tmux.screen().contains("last: paste GET /users 日本") })
        // And the window is resized
        try await tmux.run(["resize-window", "-t", tmux.target, "-x", "100", "-y", "30"])
        #expect(await eventually { await tmux.screen().contains("ready size: 100x30") })
        // When q quits, the terminal is back to normal
        try await tmux.send(["q"])
        #expect(await eventually { await tmux.format("pane_dead") == "1" })
        #expect(await tmux.format("alternate_on") == "0")
    }

    @Test(.enabled(if: tmuxAvailable))
    func aProgramInTheTestsTmuxKeepsItsStateInTheTestProcesssFolder() async throws {
        // Given a program that prints where its state would go, started the way explorer tests start courier
        let tmux = try await Self.start("printf 'state=%s\\n' \"$XDG_STATE_HOME\"; sleep 60")
        defer { tmux.stop() }
        // Then it is the test process's own folder, not the machine user's ~/.local/state
        let expected = "state=\(CourierCLI.stateFolder.path)"
        #expect(await eventually { await tmux.screen().contains(expected) }, "\(tmux.lastScreen)")
    }

    @Test(.enabled(if: tmuxAvailable))
    func stopAndContinueHandTheTerminalBackAndRedraw() async throws {
        // Given the program started from an interactive shell, as a user would
        let tmux = try await Self.start("bash --norc --noprofile -i")
        defer { tmux.stop() }
        try await tmux.send(["-l", childCommand(mode: "interactive")])
        try await tmux.send(["Enter"])
        try #require(await eventually { await tmux.screen().contains("ready size: 80x24") })
        let shell = tmux.panePid
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        let pid = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        // When it is stopped (Ctrl-Z arrives as a key in raw mode, so the stop comes as a signal)
        kill(pid, SIGTSTP)
        // Then the shell has the terminal back, out of the program's screen
        #expect(await eventually {
            let mode = await tmux.format("alternate_on"), screen = await tmux.screen()
            return mode == "0" && screen.contains("Stopped")
        })
        #expect(await tmux.format("cursor_flag") == "1")
        // When the shell brings it back with fg, it re-enters and draws its whole screen again
        try await tmux.send(["fg", "Enter"])
        #expect(await eventually {
            let mode = await tmux.format("alternate_on"), screen = await tmux.screen()
            return mode == "1" && screen.contains("ready size: 80x24")
        })
        try await tmux.send(["x"])
        #expect(await eventually { await tmux.screen().contains("last: key x") })
        try await tmux.send(["q"])
        #expect(await eventually { await tmux.format("alternate_on") == "0" })
    }

    @Test(.enabled(if: tmuxAvailable), arguments: [SIGTERM, SIGHUP, SIGINT])
    func terminatingSignalsRestoreTheTerminal(signal: Int32) async throws {
        let tmux = try await Self.start(childCommand(mode: "interactive"))
        defer { tmux.stop() }
        try #require(await eventually { await tmux.screen().contains("ready size: 80x24") })
        let pid = tmux.panePid
        kill(pid, signal)
        #expect(await eventually { await tmux.format("pane_dead") == "1" })
        #expect(await tmux.format("alternate_on") == "0")
        #expect(await tmux.format("pane_dead_status") == "")  // killed by the signal, not a normal exit
    }

    @Test(.enabled(if: tmuxAvailable))
    func aCrashRestoresTheTerminalAndStillDiesOfTheSignal() async throws {
        let tmux = try await Self.start(childCommand(mode: "crash"))
        defer { tmux.stop() }
        #expect(await eventually { await tmux.format("pane_dead") == "1" })
        #expect(await tmux.format("alternate_on") == "0")
        #expect(await tmux.format("pane_dead_status") == "")  // died of the signal, not a normal exit
    }
}

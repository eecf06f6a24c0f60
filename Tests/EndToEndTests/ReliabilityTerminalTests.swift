import Foundation
import Testing

/// The terminal survives the explorer: SIGINT, SIGTERM and SIGHUP leave it in cooked mode with echo,
/// SIGTSTP hands a usable terminal back and SIGCONT resumes the app, a resize storm leaves it
/// responsive, and a tiny terminal gets the "too small" message.
@Suite(.enabled(if: Reliability.hasTmux, "tmux is not installed (make deps installs it)"))
struct ReliabilityTerminalTests {
    /// A folder with a one-request collection, and the shell line that runs the explorer on it and then
    /// records its exit code and `stty -a` of the pane's terminal.
    struct Setup {
        let folder: URL
        var command: String {
            "cd '\(folder.path)' && XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache' "
                + "TERM=tmux-256color '\(Reliability.courier.path)' api.http; echo $? > rc.txt; stty -a > stty.txt; "
                + "echo SHELL-IS-BACK; sleep 60"
        }
        /// `stty -a` as the shell recorded it, once completely written.
        var stty: String? { Self.complete(folder.appendingPathComponent("stty.txt")) }

        /// A file's text once `stty -a` has finished writing it (its last line is the control characters).
        static func complete(_ url: URL) -> String? {
            guard let text = try? String(contentsOf: url, encoding: .utf8), text.contains("echo") else { return nil }
            return text
        }

        init() throws {
            folder = try Reliability.temporaryFolder("terminal")
            try "### Users\nGET https://example.com/users\n".write(to: folder.appendingPathComponent("api.http"),
                                                                    atomically: true, encoding: .utf8)
        }
    }

    /// Whether `stty -a` output shows a cooked terminal with echo.
    static func isCooked(_ stty: String) -> Bool {
        let words = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        return words.contains("icanon") && words.contains("echo") && !words.contains("-icanon") && !words.contains("-echo")
    }

    /// The explorer's pid: the child of the pane's shell.
    static func explorerPID(_ session: ReliabilityTmux) async -> pid_t? {
        var pid: pid_t?
        _ = await Reliability.eventually(limit: 10) {
            pid = ReliabilityTmux.child(of: session.panePID)
            return pid != nil
        }
        return pid
    }

    @Test("SIGINT, SIGTERM and SIGHUP end the explorer and leave the terminal cooked, with echo",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalLeavesTerminalUsable(signal: Int32) async throws {
        // Given the explorer running in tmux
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let session = try await ReliabilityTmux(command: setup.command)
        defer { session.kill() }
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")
        let pid = try #require(await Self.explorerPID(session))

        // When the signal arrives
        kill(pid, signal)

        // Then the shell gets the terminal back in cooked mode with echo, and the prompt line is visible
        #expect(await Reliability.eventually(limit: 10) { setup.stty != nil }, "the explorer did not exit on signal \(signal)")
        #expect(Self.isCooked(setup.stty ?? ""), "\(setup.stty ?? "")")
        #expect(await session.waitFor("SHELL-IS-BACK"), "\(session.lastScreen)")
    }

    @Test("SIGTSTP gives the shell a cooked terminal; fg (SIGCONT) brings the explorer back, responsive",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is needed for job control"))
    func suspendAndResume() async throws {
        // Given the explorer started by a shell with job control, as from an interactive prompt: after
        // the stop, the shell records `stty -a`, then resumes the explorer with fg
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let script = "set -m; cd '\(setup.folder.path)' && XDG_STATE_HOME='\(setup.folder.path)/state' "
            + "XDG_CACHE_HOME='\(setup.folder.path)/cache' TERM=tmux-256color '\(Reliability.courier.path)' api.http; "
            + "stty -a > stopped.txt; fg; echo $? > rc.txt; stty -a > stty.txt; echo SHELL-IS-BACK; sleep 60"
        let session = try await ReliabilityTmux(command: "/bin/bash -c \"\(script)\"")
        defer { session.kill() }
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")
        let pid = try #require(await Self.explorerPID(session))

        // When it is suspended
        kill(pid, SIGTSTP)

        // Then the shell got a cooked terminal while the explorer was stopped
        let stoppedFile = setup.folder.appendingPathComponent("stopped.txt")
        #expect(await Reliability.eventually(limit: 10) { Setup.complete(stoppedFile) != nil },
                "the explorer did not stop on SIGTSTP")
        let stopped = Setup.complete(stoppedFile) ?? ""
        #expect(Self.isCooked(stopped), "\(stopped)")

        // And after fg the explorer redraws and answers keys, and quits cleanly
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")
        await session.send("?")
        #expect(await session.waitFor("help", limit: 10), "\(session.lastScreen)")
        await session.send("Escape")
        // A pause, so that ESC and q are not read together as Alt-q.
        try await Task.sleep(for: .milliseconds(400))
        await session.send("q")
        #expect(await Reliability.eventually(limit: 10) { setup.stty != nil }, "\(session.lastScreen)")
        #expect(Self.isCooked(setup.stty ?? ""), "\(setup.stty ?? "")")
    }

    @Test("Hundreds of resizes leave the explorer drawing at the final size and answering keys")
    func resizeStormLeavesAppResponsive() async throws {
        // Given the explorer running in tmux
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let session = try await ReliabilityTmux(command: setup.command)
        defer { session.kill() }
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")

        // When the window is resized 300 times, through tiny and large sizes, in one tmux command list
        let sizes = (0..<300).map { index in (40 + (index * 37) % 160, 6 + (index * 13) % 60) }
        var commands: [String] = []
        for (width, height) in sizes {
            commands += ["resize-window", "-t", session.target, "-x", "\(width)", "-y", "\(height)", ";"]
        }
        _ = try await session.run(commands.dropLast())
        await session.resize(width: 100, height: 30)

        // Then it settles at 100×30 with its panes, and a key still works
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")
        let lines = await session.screen().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 30)
        await session.send("q")
        #expect(await Reliability.eventually(limit: 10) { setup.stty != nil }, "the explorer no longer answers 'q'")
        #expect(Self.isCooked(setup.stty ?? ""))
    }

    @Test("A 30×8 terminal shows the too-small message instead of panes")
    func tinyTerminalShowsTooSmall() async throws {
        // Given a 30×8 terminal
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let session = try await ReliabilityTmux(command: setup.command, width: 30, height: 8)
        defer { session.kill() }

        // Then the explorer says so, and quits cleanly on q
        #expect(await session.waitFor("too small"), "\(session.lastScreen)")
        await session.send("q")
        #expect(await Reliability.eventually(limit: 10) { setup.stty != nil })
    }
}

import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// Request scripts in the real explorer (tmux): a handler that never returns is stopped at its limit while
/// the screen keeps answering keys, a cancelled send stops its script at once (killing the process of one that
/// uses promises), and test results show in the Log pane.
@Suite("request scripts in the explorer", .serialized,
       .enabled(if: Reliability.hasCourier, "the courier binary is not built; run swift build first"))
struct ScriptExplorerTests {
    static let collection = """
        ### A handler that loops forever
        # @name spin
        # @script-timeout 2
        GET {{base}}/users?spin=1

        > {%
            client.test("never reached", () => client.assert(true));
            while (true) {}
        %}

        """

    @Test("A looping handler is stopped at its limit; help opens while it runs")
    func aLoopingHandlerIsStoppedAndTheScreenStaysResponsive() async throws {
        let session = try await ExplorerEndToEndTests.Session(collection: Self.collection)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let (loaded, first) = await tmux.waitFor { $0.contains("spin") }
        #expect(loaded, "the collection never showed:\n\(first)")
        // The first request is open at start
        let (opened, request) = await tmux.waitFor { $0.contains("/users?spin=1") }
        #expect(opened, "the request never opened:\n\(request)")
        // When it is sent (Enter on it in the tree), and help is asked for while its handler loops
        try await tmux.keys("Enter")
        let (sent, _) = await tmux.waitFor { _ in server.completedCount(path: "/users") == 1 }
        #expect(sent)
        try await tmux.keys("?")
        let (help, helpScreen) = await tmux.waitFor { $0.contains("Help · ") && $0.contains("Esc closes") }
        #expect(help, "help did not open while the script ran:\n\(helpScreen)")
        try await tmux.keys("Escape")
        // Then the handler is stopped at its limit and the Log pane says so
        let (stopped, screen) = await tmux.waitFor(timeout: 60) { $0.contains("✗ script error") }
        #expect(stopped, "the looping handler was never reported as stopped:\n\(screen)")
        #expect(server.completedCount(path: "/users") == 1)
    }

    /// How many threads of process `pid` other than its main thread are computing (state R, running or waiting
    /// for a core): while a script loops, its thread; when the explorer is idle, none.
    static func computingThreads(of pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            guard task != "\(pid)" else { return false }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)) ?? ""
            // The state follows the thread's name in parentheses, which may itself hold spaces.
            return stat.range(of: ") ", options: .backwards).map { stat[$0.upperBound...].hasPrefix("R") } ?? false
        }.count
    }

    @Test("Ctrl-C stops a pre-request script that was allowed ten minutes")
    func cancellingASendStopsItsScript() async throws {
        // Given a request whose pre-request script loops, with a ten-minute limit
        let session = try await ExplorerEndToEndTests.Session(collection: """
            ### A pre-request script that loops
            # @name spin
            # @script-timeout 600
            < {%
                while (true) {}
            %}
            GET {{base}}/users?spin=2

            """)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let pid = tmux.server.panePid
        let (opened, request) = await tmux.waitFor { $0.contains("/users?spin=2") }
        #expect(opened, "the request never opened:\n\(request)")
        // When it is sent, and cancelled while its script runs
        try await tmux.keys("Enter")
        let (running, _) = await tmux.waitFor { _ in Self.computingThreads(of: pid) > 0 }
        #expect(running, "the script never started")
        try await tmux.keys("C-c")
        // Then the script's thread ends (before, it computed until its limit, ten minutes later), the explorer
        // goes on answering, and the request was never sent
        let (stopped, screen) = await tmux.waitFor { _ in Self.computingThreads(of: pid) == 0 }
        #expect(stopped, "the script still runs after the cancel:\n\(screen)")
        #expect(server.completedCount(path: "/users") == 0)
    }

    @Test("Ctrl-C kills the process of a pre-request script that awaits for ever")
    func cancellingASendKillsItsAsyncScriptsProcess() async throws {
        // Given a request whose pre-request script loops over await, with a ten-minute limit
        let session = try await ExplorerEndToEndTests.Session(collection: """
            ### A pre-request script that awaits for ever
            # @name spin
            # @script-timeout 600
            < {%
                (async function () { for (;;) await null; })();
            %}
            GET {{base}}/users?spin=3

            """)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let pid = tmux.server.panePid
        let (opened, request) = await tmux.waitFor { $0.contains("/users?spin=3") }
        #expect(opened, "the request never opened:\n\(request)")
        // When it is sent, and cancelled while its script's process computes
        try await tmux.keys("Enter")
        let (running, _) = await tmux.waitFor { _ in
            ProcessTree.scriptProcesses(under: pid).contains { ProcessTree.isComputing($0) }
        }
        #expect(running, "the script's process never started")
        try await tmux.keys("C-c")
        // Then the process is gone (before, the chain of awaits computed for ever in the explorer itself), the
        // explorer goes on answering, and the request was never sent
        let (stopped, screen) = await tmux.waitFor { _ in ProcessTree.scriptProcesses(under: pid).isEmpty }
        #expect(stopped, "the script's process still runs after the cancel:\n\(screen)")
        try await tmux.keys("?")
        let (help, helpScreen) = await tmux.waitFor { $0.contains("Help · ") && $0.contains("Esc closes") }
        #expect(help, "the explorer stopped answering:\n\(helpScreen)")
        #expect(server.completedCount(path: "/users") == 0)
    }
}

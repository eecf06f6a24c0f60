import CourierDemo
import Foundation
import Testing

/// Request scripts in the real explorer (tmux): a handler that never returns is stopped at its limit while
/// the screen keeps answering keys, and test results show in the Log pane.
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
}

import Foundation
import Testing

/// The real terminal after a resize or Ctrl-L shows exactly the explorer's frame: nothing of an earlier
/// frame or of another program's output survives.
@Suite("the explorer repaints in tmux", .serialized)
struct ExplorerRepaintTests {
    typealias Session = ExplorerEndToEndTests.Session

    /// The screen of an explorer started at `width`×`height` on the demo, left as it starts.
    private func freshScreen(width: Int, height: Int) async throws -> String {
        let session = try await Session(width: width, height: height)
        defer { session.stop() }
        let (loaded, screen) = await session.tmux.waitFor { $0.contains("listUsers") }
        #expect(loaded, "the collection never showed:\n\(screen)")
        try await Task.sleep(for: .milliseconds(500))
        return await session.tmux.screen()
    }

    @Test("160×48 → 100×30 → 80×24 → 160×48 leaves the screen exactly as a fresh start at 160×48")
    func resizingDownAndBackLeavesNoStaleCharacters() async throws {
        let expected = try await freshScreen(width: 160, height: 48)
        let session = try await Session(width: 160, height: 48)
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("listUsers") }
        for (width, height) in [(100, 30), (80, 24), (160, 48)] {
            try await tmux.resize(width: width, height: height)
            let (resized, screen) = await tmux.waitFor {
                let rows = $0.split(separator: "\n", omittingEmptySubsequences: false)
                return rows.count >= height && (rows.first?.count ?? 0) > 0 && $0.contains("env: demo")
            }
            #expect(resized, "no frame at \(width)×\(height):\n\(screen)")
            try await Task.sleep(for: .milliseconds(300))
        }
        // Each session has a demo server of its own, whose port the status bar names.
        let port = { (screen: String) in
            screen.replacingOccurrences(of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
        }
        let (same, screen) = await tmux.waitFor { port($0) == port(expected) }
        #expect(same, "stale characters after resizing:\n\(screen)\n--- expected ---\n\(expected)")
    }

    @Test("Ctrl-L clears what another program wrote over the explorer")
    func ctrlLRepaintsEverything() async throws {
        let session = try await Session(width: 120, height: 40)
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("listUsers") }
        try await Task.sleep(for: .milliseconds(300))
        let before = await tmux.screen()
        // When something writes over the screen behind the explorer's back
        try await tmux.scribble("\u{1B}[5;5HSCRIBBLED OVER THE FRAME")
        let (scribbled, dirty) = await tmux.waitFor { $0.contains("SCRIBBLED") }
        #expect(scribbled, "the scribble never showed:\n\(dirty)")
        // Then Ctrl-L puts the explorer's frame back, all of it
        try await tmux.keys("C-l")
        let (clean, after) = await tmux.waitFor { !$0.contains("SCRIBBLED") }
        #expect(clean, "Ctrl-L left the scribble:\n\(after)")
        #expect(after == before)
    }
}

import Foundation
import Testing

/// The real terminal after a resize or Ctrl-L shows exactly the explorer's frame: nothing of an earlier
/// frame or of another program's output survives.
@Suite("the explorer repaints in tmux", .serialized)
struct ExplorerRepaintTests {
    typealias Session = ExplorerEndToEndTests.Session

    /// The screen of an explorer started at `width`×`height` on the demo, left as it starts.
    private func freshScreen(width: Int, height: Int) throws -> String {
        let session = try Session(width: width, height: height)
        defer { session.stop() }
        let (loaded, screen) = try session.tmux.waitFor { $0.contains("listUsers") }
        #expect(loaded, "the collection never showed:\n\(screen)")
        Thread.sleep(forTimeInterval: 0.5)
        return try session.tmux.screen()
    }

    @Test("160×48 → 100×30 → 80×24 → 160×48 leaves the screen exactly as a fresh start at 160×48")
    func resizingDownAndBackLeavesNoStaleCharacters() throws {
        let expected = try freshScreen(width: 160, height: 48)
        let session = try Session(width: 160, height: 48)
        defer { session.stop() }
        let tmux = session.tmux
        try tmux.waitFor { $0.contains("listUsers") }
        for (width, height) in [(100, 30), (80, 24), (160, 48)] {
            try tmux.resize(width: width, height: height)
            let (resized, screen) = try tmux.waitFor {
                let rows = $0.split(separator: "\n", omittingEmptySubsequences: false)
                return rows.count >= height && (rows.first?.count ?? 0) > 0 && $0.contains("env: demo")
            }
            #expect(resized, "no frame at \(width)×\(height):\n\(screen)")
            Thread.sleep(forTimeInterval: 0.3)
        }
        let (same, screen) = try tmux.waitFor { $0 == expected }
        #expect(same, "stale characters after resizing:\n\(screen)\n--- expected ---\n\(expected)")
    }

    @Test("Ctrl-L clears what another program wrote over the explorer")
    func ctrlLRepaintsEverything() throws {
        let session = try Session(width: 120, height: 40)
        defer { session.stop() }
        let tmux = session.tmux
        try tmux.waitFor { $0.contains("listUsers") }
        Thread.sleep(forTimeInterval: 0.3)
        let before = try tmux.screen()
        // When something writes over the screen behind the explorer's back
        try tmux.scribble("\u{1B}[5;5HSCRIBBLED OVER THE FRAME")
        let (scribbled, dirty) = try tmux.waitFor { $0.contains("SCRIBBLED") }
        #expect(scribbled, "the scribble never showed:\n\(dirty)")
        // Then Ctrl-L puts the explorer's frame back, all of it
        try tmux.keys("C-l")
        let (clean, after) = try tmux.waitFor { !$0.contains("SCRIBBLED") }
        #expect(clean, "Ctrl-L left the scribble:\n\(after)")
        #expect(after == before)
    }
}

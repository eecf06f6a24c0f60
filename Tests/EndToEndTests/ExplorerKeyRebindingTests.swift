import Foundation
import Testing

/// The real binary reads `"keys"` from `$XDG_CONFIG_HOME/courier/config.json` and the terminal shows it.
@Suite("the explorer in tmux: keys rebound in config.json", .serialized)
struct ExplorerKeyRebindingTests {
    /// A config folder holding `config.json` with `text`, and the variable that points the explorer at it.
    static func configFolder(_ text: String) throws -> (folder: URL, variables: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        let courier = folder.appendingPathComponent("courier")
        try FileManager.default.createDirectory(at: courier, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: courier.appendingPathComponent("config.json"))
        return (folder, "XDG_CONFIG_HOME='\(folder.path)'")
    }

    @Test func reboundKeysRunTheirCommandsAndHelpShowsThem() async throws {
        // Given zoom moved from z to Ctrl-O and help from ? to F1
        let (config, variables) = try Self.configFolder("""
            {
              "keys": { "global": { "zoom": "Ctrl-O", "help": "F1" } }
            }
            """)
        defer { try? FileManager.default.removeItem(at: config) }
        let session = try await ExplorerEndToEndTests.Session(variables: variables)
        defer { session.stop() }
        let tmux = session.tmux
        let (loaded, first) = await tmux.waitFor { $0.contains("listUsers") && $0.contains("2 Request") }
        #expect(loaded, "the explorer never showed:\n\(first)")
        // When pressing the old keys, then the new zoom key: had `?` opened help it would swallow the rest,
        // had `z` zoomed, Ctrl-O would zoom back out
        try await tmux.keys("?", "z", "C-o")
        // Then the collection is zoomed, with no help over it
        let (zoomed, screen) = await tmux.waitFor { !$0.contains("2 Request") && $0.contains("listUsers") }
        #expect(zoomed, "Ctrl-O did not zoom (or ? or z still acted):\n\(screen)")
        #expect(!screen.contains("Help ·"), "? still opens help:\n\(screen)")
        // And F1 opens help, which lists the new keys
        try await tmux.keys("F1")
        let (help, helpScreen) = await tmux.waitFor { $0.contains("Help ·") && $0.contains("zoom pane") }
        #expect(help, "F1 did not open help:\n\(helpScreen)")
        let zoomLine = helpScreen.split(separator: "\n").first { $0.contains("zoom pane") } ?? ""
        #expect(zoomLine.contains("Ctrl-O"), "\(zoomLine)")
        #expect(helpScreen.split(separator: "\n").contains { $0.contains("F1") && $0.contains(" help ") })
    }

    @Test func aBadKeysObjectIsReportedAndTheDefaultKeysWork() async throws {
        // Given a misspelt command name on line 3
        let (config, variables) = try Self.configFolder("""
            {
              "keys": {
                "global": { "zom": "Ctrl-O" }
              }
            }
            """)
        defer { try? FileManager.default.removeItem(at: config) }
        let session = try await ExplorerEndToEndTests.Session(variables: variables)
        defer { session.stop() }
        let tmux = session.tmux
        // Then the explorer starts and the status bar names the file and line
        let (reported, screen) = await tmux.waitFor { $0.contains("listUsers") && $0.contains("config.json:3:") }
        #expect(reported, "no file:line error in the status bar:\n\(screen)")
        // And the default keys work
        try await tmux.keys("z")
        let (zoomed, after) = await tmux.waitFor { !$0.contains("2 Request") && $0.contains("listUsers") }
        #expect(zoomed, "z no longer zooms:\n\(after)")
    }
}

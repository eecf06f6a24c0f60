import CourierDemo
import Foundation
import Testing

/// The JSONPath filter in the real explorer, in tmux, on a large `/large` response: the filter runs in the
/// background and its matches replace the body; a second filter replaces the first, and Esc returns to
/// the body.
@Suite("the JSONPath filter on a large response in the explorer", .serialized)
struct ExplorerFilterTests {
    @Test func aFilterOnALargeResponseShowsItsMatchesAndEscReturnsToTheBody() throws {
        // Given the explorer on a collection whose only request asks the demo server for 10 MB of JSON
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-filter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let collection = "### Ten megabytes\n# @name large\nGET http://127.0.0.1:\(server.port)/large?mb=10\n"
        try Data(collection.utf8).write(to: folder.appendingPathComponent("large.http"))
        let binary = TmuxSession.binary.path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
        // History and the HTTP cache go into the test's folder, never the user's.
        let state = "XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache'"
        let tmux = try TmuxSession(command: "\(state) exec '\(binary)' large.http", directory: folder)
        defer { tmux.stop() }
        let (loaded, first) = try tmux.waitFor { $0.contains("large") }
        #expect(loaded, "the collection never showed:\n\(first)")
        try tmux.keys("j", "Enter")
        try tmux.waitFor { $0.contains("/large?mb=10") }
        try tmux.keys("Enter")
        let (opened, screen) = try tmux.waitFor(timeout: 90) { $0.contains("200 OK") && $0.contains("\"id\": 1,") }
        #expect(opened, "the body's first screen never showed:\n\(screen)")

        // When the response pane filters for one record's name (the prompt starts with `$`)
        try tmux.keys("3", "f")
        try tmux.waitFor { $0.contains("JSONPath: $") }
        try tmux.type("[?(@.id == 4242)].name")
        try tmux.keys("Enter")

        // Then, once the whole body is read, the one match replaces the body
        let (filtered, filteredScreen) = try tmux.waitFor(timeout: 120) {
            $0.contains("\"User 4242\"") && $0.contains("· 1 match")
        }
        #expect(filtered, "the filter's result never showed:\n\(filteredScreen)")
        #expect(!filteredScreen.contains("\"id\": 1,"))

        // When Esc is pressed, the body is back
        try tmux.keys("Escape")
        let (back, backScreen) = try tmux.waitFor(timeout: 10) { $0.contains("\"id\": 1,") }
        #expect(back, "Esc did not return to the body:\n\(backScreen)")
    }
}

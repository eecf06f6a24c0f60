import CourierDemo
import Foundation
import Testing

/// A 50 MB JSON response in the real explorer, in tmux: it opens pretty-printed at once, switches to raw,
/// jumps to the end, scrolls back to the top and finds a word in the last record, and the explorer answers keys throughout.
@Suite("a 50 MB response in the explorer", .serialized)
struct ExplorerLargeBodyTests {
    @Test func aFiftyMegabyteResponseOpensJumpsToTheEndAndScrollsBack() throws {
        // Given the explorer on a collection whose only request asks the demo server for 50 MB of JSON
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let collection = "### Fifty megabytes\n# @name large\nGET http://127.0.0.1:\(server.port)/large?mb=50\n"
        try Data(collection.utf8).write(to: folder.appendingPathComponent("large.http"))
        let binary = TmuxSession.binary.path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
        // History and the HTTP cache go into the test's folder, never the user's.
        let state = "XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache'"
        let tmux = try TmuxSession(command: "\(state) exec '\(binary)' large.http", directory: folder)
        defer { tmux.stop() }
        let (loaded, first) = try tmux.waitFor { $0.contains("large") }
        #expect(loaded, "the collection never showed:\n\(first)")

        // When it is opened and sent
        try tmux.keys("j", "Enter")
        try tmux.waitFor { $0.contains("/large?mb=50") }
        try tmux.keys("Enter")

        // Then the first screen of the body shows once it has arrived (the server generates it on the fly)
        let (opened, screen) = try tmux.waitFor(timeout: 90) { $0.contains("200 OK") && $0.contains("\"id\": 1,") }
        #expect(opened, "the body's first screen never showed:\n\(screen)")
        #expect(server.completedCount(path: "/large") == 1)

        // When the response pane shows the raw body and jumps to its end, the last record (the padding)
        // shows (the raw line index of 50 MB is quick even in a debug build; the pretty one is built in
        // the background and takes longer there)
        try tmux.keys("3", "r")
        try tmux.waitFor { $0.contains("{\"id\":1,") }
        try tmux.keys("G")
        let (atEnd, endScreen) = try tmux.waitFor(timeout: 60) { $0.contains("\"padding\"") && $0.contains("]") }
        #expect(atEnd, "the end of the body never showed:\n\(endScreen)")

        // And the explorer still answers: back to the top, then help opens
        try tmux.keys("g")
        let (top, topScreen) = try tmux.waitFor(timeout: 10) { $0.contains("{\"id\":1,") }
        #expect(top, "scrolling back to the top failed:\n\(topScreen)")

        // When it searches the raw body for a word only the last record holds
        try tmux.keys("/")
        try tmux.type("padding")
        try tmux.keys("Enter")
        // Then the search finishes with one match and the screen says so (not "searching 99%")
        let (found, foundScreen) = try tmux.waitFor(timeout: 60) { $0.contains("1 match") && !$0.contains("searching") }
        #expect(found, "the search never finished on screen:\n\(foundScreen)")
        // And `n` moves to the match at the end of the body
        try tmux.keys("n")
        let (onHit, hitScreen) = try tmux.waitFor(timeout: 10) { $0.contains("1/1 match") && $0.contains("\"padding\"") }
        #expect(onHit, "n did not move to the match:\n\(hitScreen)")
        try tmux.keys("?")
        let (help, helpScreen) = try tmux.waitFor(timeout: 10) { $0.contains("Ctrl-Z") }
        #expect(help, "help did not open after the large body:\n\(helpScreen)")
    }
}

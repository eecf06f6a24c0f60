import Foundation
import Testing

/// A 50 MB JSON response in the real explorer, in tmux: it opens pretty-printed at once, switches to raw,
/// jumps to the end, scrolls back to the top and finds a word in the last record, and the explorer answers keys throughout.
@Suite("a 50 MB response in the explorer", .serialized)
struct ExplorerLargeBodyTests {
    @Test func aFiftyMegabyteResponseOpensJumpsToTheEndAndScrollsBack() async throws {
        // Given the explorer on a collection whose only request asks the demo server for 50 MB of JSON,
        // When it is opened and sent, Then the first screen of the body shows once it has arrived
        let session = try await LargeResponseSession(megabytes: 50)
        defer { session.stop() }
        let tmux = session.tmux
        #expect(session.server.completedCount(path: "/large") == 1)

        // When the response pane shows the raw body and jumps to its end, the last record (the padding)
        // shows (the raw line index of 50 MB is quick even in a debug build; the pretty one is built in
        // the background and takes longer there)
        try await tmux.keys("3", "r")
        await tmux.waitFor { $0.contains("{\"id\":1,") }
        try await tmux.keys("G")
        let (atEnd, endScreen) = await tmux.waitFor(timeout: 60) { $0.contains("\"padding\"") && $0.contains("]") }
        #expect(atEnd, "the end of the body never showed:\n\(endScreen)")

        // And the explorer still answers: back to the top, then help opens
        try await tmux.keys("g")
        let (top, topScreen) = await tmux.waitFor { $0.contains("{\"id\":1,") }
        #expect(top, "scrolling back to the top failed:\n\(topScreen)")

        // When it searches the raw body for a word only the last record holds
        try await tmux.keys("/")
        try await tmux.type("padding")
        try await tmux.keys("Enter")
        // Then the search finishes with one match and the screen says so (not "searching 99%")
        let (found, foundScreen) = await tmux.waitFor(timeout: 60) { $0.contains("1 match") && !$0.contains("searching") }
        #expect(found, "the search never finished on screen:\n\(foundScreen)")
        // And `n` moves to the match at the end of the body
        try await tmux.keys("n")
        let (onHit, hitScreen) = await tmux.waitFor { $0.contains("1/1 match") && $0.contains("\"padding\"") }
        #expect(onHit, "n did not move to the match:\n\(hitScreen)")
        try await tmux.keys("?")
        let (help, helpScreen) = await tmux.waitFor { $0.contains("Help · ") && $0.contains("Esc closes") }
        #expect(help, "help did not open after the large body:\n\(helpScreen)")
    }
}

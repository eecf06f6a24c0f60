import Foundation
import Testing

/// The JSONPath filter in the real explorer, in tmux, on a large `/large` response: the filter runs in the
/// background and its matches replace the body; a second filter replaces the first, and Esc returns to
/// the body.
@Suite("the JSONPath filter on a large response in the explorer", .serialized)
struct ExplorerFilterTests {
    @Test func aFilterOnALargeResponseShowsItsMatchesAndEscReturnsToTheBody() async throws {
        // Given the explorer showing a 10 MB JSON response from the demo server
        let session = try await LargeResponseSession(megabytes: 10)
        defer { session.stop() }
        let tmux = session.tmux

        // When the response pane filters for one record's name (the prompt starts with `$`)
        try await tmux.keys("3", "f")
        await tmux.waitFor { $0.contains("JSONPath: $") }
        try await tmux.type("[?(@.id == 4242)].name")
        try await tmux.keys("Enter")

        // Then, once the whole body is read, the one match replaces the body
        let (filtered, filteredScreen) = await tmux.waitFor(timeout: 120) {
            $0.contains("\"User 4242\"") && $0.contains("· 1 match")
        }
        #expect(filtered, "the filter's result never showed:\n\(filteredScreen)")
        #expect(!filteredScreen.contains("\"id\": 1,"))

        // When Esc is pressed, the body is back
        try await tmux.keys("Escape")
        let (back, backScreen) = await tmux.waitFor { $0.contains("\"id\": 1,") }
        #expect(back, "Esc did not return to the body:\n\(backScreen)")
    }
}

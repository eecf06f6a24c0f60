import CourierDemo
import Foundation
import Testing

/// The retry layer's "not retried" reason, through the real stack: the `courier` explorer in tmux
/// sends a POST to the demo server's 503 storm, and the Log pane says why it was sent only once.
@Suite("the explorer's log says why a failure was not retried", .serialized,
       .enabled(if: Reliability.hasCourier, "the courier binary is not built; run swift build first"))
struct RetryDeclinedExplorerTests {
    static let collection = """
        ### A POST the server always answers with 503
        # @name stormPost
        POST {{base}}/chaos/503-storm?retry_after=none
        Content-Type: application/json

        {}

        """

    @Test("A POST answered 503 is sent once, and the Log pane shows the row saying why")
    func postTo503StormShowsTheDeclinedRow() async throws {
        // Given the explorer on a collection holding one POST to the 503 storm
        let session = try await ExplorerEndToEndTests.Session(collection: Self.collection)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let (loaded, first) = await tmux.waitFor { $0.contains("stormPost") }
        #expect(loaded, "the collection never showed:\n\(first)")

        // When the request (selected at start) is opened and sent with one Enter
        try await tmux.keys("Enter")
        let (opened, request) = await tmux.waitFor { $0.contains("/chaos/503-storm") }
        #expect(opened, "the request never opened:\n\(request)")

        // Then the log shows the 503 attempt and, under it, why it was not retried
        let (declined, screen) = await tmux.waitFor { $0.contains("⊘ not retried") }
        #expect(declined, "no 'not retried' row in the log:\n\(screen)")
        #expect(screen.contains("#1  503"), "no log row for the attempt:\n\(screen)")
        #expect(screen.contains("HTTP 503: POST without"), "the reason is missing:\n\(screen)")
        // And the server saw exactly one request
        #expect(server.requestCount(path: "/chaos/503-storm") == 1)
        #expect(!screen.contains("#2"), "a second attempt was made:\n\(screen)")
    }
}

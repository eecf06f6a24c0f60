@testable import CourierHistory
import CourierTestSupport
import Foundation
import Testing
@testable import CourierBody

/// `courier history show` for responses that came over HTTP/2, which carry no reason phrase.
@Suite(.serialized) struct HistoryCommandHTTP2Tests {
    @Test("history show prints a response without a reason phrase as the bare status, no dangling space")
    func statusWithoutReasonHasNoTrailingSpace() async throws {
        // Given a history entry recorded from an HTTP/2 response (no reason phrase, lower-case names)
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let entry = HistoryEntry(request: .init(method: "GET", url: "https://127.0.0.1:8443/small.json"),
                                 response: .init(status: 200, headers: [.init("content-type", "application/json")]))
        let stored = try store.record(entry, body: Data(#"{"ok":true}"#.utf8), secrets: [])

        // When showing it
        let show = try await CourierCLI.run(["history", "show", stored.id, "--dir", folder.url.path])

        // Then the response line is exactly "< 200" and the header follows as received
        #expect(show.status == 0)
        let lines = show.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("< 200"))
        #expect(!lines.contains("< 200 "))
        #expect(lines.contains("< content-type: application/json"))
    }
}

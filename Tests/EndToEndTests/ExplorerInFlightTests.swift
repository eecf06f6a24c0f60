import CourierDemo
import Foundation
import Testing

/// A send in flight says how it is getting on in the real explorer: time, attempt n of m and the wait
/// before the next, bytes and rate; its answer says every attempt and the whole time.
@Suite("a send in flight, in tmux", .serialized)
struct ExplorerInFlightTests {
    typealias Session = ExplorerEndToEndTests.Session

    @Test func retriesAreCountedAndTheAnswerSaysTheWholeSend() async throws {
        // Given a request the demo server answers with 503 twice, then 200, each 503 asking for a wait of 3 s (the
        // default 1 s could pass between two reads of a screen on a loaded machine)
        let session = try await Session(collection: """
            ### flaky
            GET {{base}}/flaky?key=in-flight&retry_after=3

            ### drip
            GET {{base}}/chaos/drip?bytes=30&interval_ms=150

            """)
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("2 Request · flaky") }
        // When sending it
        try await tmux.keys("Enter")
        // Then the Response pane counts the attempts and the wait before the next, with the time so far
        let (waiting, during) = await tmux.waitFor { $0.contains("attempt 2 of 3 in") && $0.contains("attempt 1 of 3") }
        #expect(waiting, "no attempt count or wait while retrying:\n\(during)")
        #expect(during.contains("(HTTP 503"), "the wait does not say why:\n\(during)")
        // And the answer's status line gives all three attempts and the whole time, not the last attempt's
        let (answered, after) = await tmux.waitFor { $0.contains("200 OK") }
        #expect(answered, "\(after)")
        #expect(after.contains(" s in 3 attempts, last "), "\(after)")
        #expect(session.server.completedCount(path: "/flaky") == 3)
        // When sending a body that arrives a byte at a time
        try await tmux.keys("1", "j", "Enter")
        // Then its bytes and rate show while it arrives
        let (dripping, screen) = await tmux.waitFor { $0.contains("received ") && $0.contains(" of 30 B · ") && $0.contains("B/s") }
        #expect(dripping, "no bytes or rate while the body arrives:\n\(screen)")
        #expect(screen.contains("sending 'drip'… "), "\(screen)")
    }
}

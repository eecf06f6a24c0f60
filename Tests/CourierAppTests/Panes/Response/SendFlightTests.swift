import CourierApp
import CourierBody
import CourierHTTP
import CourierTerminal
import Foundation
import Synchronization
import Testing

/// The Response pane and the status bar while a send is in flight, from the actions the effect runner posts.
@Suite("update: a send in flight")
struct SendFlightTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_000_000))
        func advance(_ seconds: Double) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    @Test func elapsedTimeAttemptsTheWaitBeforeTheNextAndBytesShowThenTheAnswerCountsThemAll() throws {
        // Given "List users" sent at a known time
        let clock = Clock()
        var state = Fixtures.loaded()
        state.clock = { clock.now.withLock { $0 } }
        let effects = state.press(Key(.enter))
        guard case .send(let generation, _)? = effects.last else { Issue.record("no send: \(effects)"); return }
        let id = RequestID(424_242)
        _ = update(&state, .sendStarted(generation: generation, id: id))
        let url = URL(string: "http://127.0.0.1:8088/users?page=1")!
        _ = update(&state, .clientEvent(.attemptStarted(id, attempt: 1, method: .get, url: url, headers: [:], at: clock.now.withLock { $0 })))
        // When 1.2 s pass and the first attempt is answered 503, to be retried in a second
        clock.advance(1.2)
        _ = update(&state, .clientEvent(.retryScheduled(id, attempt: 1, reason: "HTTP 503", delay: .seconds(1))))
        _ = update(&state, .tick)
        // Then the pane says the time, the attempt out of three, and the wait with its reason
        var screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("1.20 s · attempt 1 of 3"), "\(screen)")
        #expect(screen.contains("attempt 2 of 3 in 1.00 s (HTTP 503)"), "\(screen)")
        #expect(screen.contains("sending 'List users'… 1.20 s"), "\(screen)")
        // When the second attempt starts and its body arrives
        clock.advance(1)
        _ = update(&state, .clientEvent(.attemptStarted(id, attempt: 2, method: .get, url: url, headers: [:], at: clock.now.withLock { $0 })))
        _ = update(&state, .sendProgress(generation: generation, TransferProgress(received: 12 << 20, expected: 50 << 20,
                                                                                  elapsed: .milliseconds(1500))))
        clock.advance(0.3)
        _ = update(&state, .tick)
        // Then the bytes and rate show, and the wait is gone
        screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("2.50 s · attempt 2 of 3"), "\(screen)")
        #expect(screen.contains("received 12.0 MB of 50.0 MB · 8.0 MB/s"), "\(screen)")
        #expect(!screen.contains("attempt 3 of 3 in"), "\(screen)")
        // When the answer arrives
        clock.advance(0.5)
        let info = ResponsePaneInfo(status: 200, reason: "OK", duration: 0.000_641,
                                    headers: [.init("Content-Type", "application/json")])
        _ = update(&state, .responsePaneReady(generation: generation, ResponsePaneState(info: info, body: BodyDocument(data: Data("[]".utf8)))))
        // Then its status line gives the whole send and its attempts, and the last attempt's own time
        screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("200 OK · 3.00 s in 2 attempts, last 641 µs"), "\(screen)")
        #expect(state.flight == nil)
    }

    @Test func aRequestThatIsNotRetriedSaysNoAttemptCount() {
        var state = Fixtures.loaded()
        state.press(.char("j"), Key(.enter))
        #expect(state.flight?.maxAttempts == 1)
        _ = update(&state, .tick)
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(!screen.contains("attempt"), "\(screen)")
    }
}

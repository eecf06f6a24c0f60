import CourierApp
import CourierBody
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// The run loop itself, with a backend that waits like a terminal: it must keep repainting while
/// background work runs and paint the finished result before it goes idle.
@Suite("Explorer run loop")
struct ExplorerLoopTests {
    /// Plays scripted keys, sleeps through tick timeouts, and when the loop would block with nothing to
    /// do, records the frame on screen and answers with `q` so the run ends.
    final class IdleProbeBackend: TerminalBackend, Sendable {
        private struct Recorded {
            var script: [InputEvent]
            var lastFrame: Buffer?
            var idleFrame: Buffer?
            var waits = 0
        }
        private let recorded: Mutex<Recorded>
        let size: Size

        init(size: Size, script: [InputEvent]) {
            self.size = size
            recorded = Mutex(Recorded(script: script))
        }

        func draw(_ buffer: Buffer, cursor: Position?) { recorded.withLock { $0.lastFrame = buffer } }

        func nextEvent(timeout: Duration?) -> InputEvent? {
            if let next = recorded.withLock({ $0.script.isEmpty ? nil : $0.script.removeFirst() }) { return next }
            guard let timeout else {
                // Idle: a real terminal would now wait for a key with this frame on screen.
                return recorded.withLock { state in
                    if state.idleFrame == nil { state.idleFrame = state.lastFrame }
                    return .key(.char("q"))
                }
            }
            // A loop that never goes idle fails the test instead of hanging it (a minute of ticks).
            if recorded.withLock({ $0.waits += 1; return $0.waits > 600 }) { return .key(.char("q")) }
            Thread.sleep(forTimeInterval: Double(timeout.components.attoseconds) / 1e18 + Double(timeout.components.seconds))
            return nil
        }

        func wake() {}
        func restore() {}

        /// How many timed waits (ticks) the loop made.
        var waits: Int { recorded.withLock { $0.waits } }

        /// The frame on screen last.
        var lastText: String { recorded.withLock { $0.lastFrame?.lines().joined(separator: "\n") ?? "" } }

        /// The frame that was on screen when the loop first went idle.
        var idleText: String { recorded.withLock { $0.idleFrame?.lines().joined(separator: "\n") ?? "" } }
    }

    @Test("a search that finishes between two ticks is painted before the loop goes idle")
    func finishedSearchIsPaintedBeforeIdle() async {
        // Given a response pane over a body large enough that searching it takes several ticks,
        // with the one match on the last line
        let lines = (0..<400_000).map { "{\"id\": \($0), \"name\": \"user \($0)\"}" } + ["{\"padding\": \"end\"}"]
        let body = BodyDocument(data: Data(lines.joined(separator: "\n").utf8))
        let pane = ResponsePaneState(info: ResponsePaneInfo(status: 200, reason: "OK",
                                                           headers: [.init("Content-Type", "text/plain")]),
                                     body: body)
        var state = Fixtures.loaded()
        // (the effects of showing it: the job that indexes the body, started by the run loop)
        let indexing = update(&state, .responsePaneReady(generation: state.generation, pane))
        // When the user focuses the response, searches for the last line's word, and the loop runs until idle
        let keys: [Key] = [.char("3"), .char("/")] + "padding".map { .char($0) } + [Key(.enter)]
        let backend = IdleProbeBackend(size: state.size, script: keys.map { .key($0) })
        let queue = ActionQueue { backend.wake() }
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        // The loop blocks its thread while it waits, as on a terminal: not one of the pool's, which the
        // indexing job needs.
        let start = state
        await OwnThread.run { Explorer.run(backend: backend, state: start, runner: runner, queue: queue, startup: indexing) }
        // Then the frame left on screen shows the finished search with its one match
        let screen = backend.idleText
        #expect(backend.waits <= 600, "the loop never went idle: \(backend.lastText)")
        #expect(screen.contains("1 match"), "\(screen)")
        #expect(!screen.contains("searching"), "\(screen)")
    }
}

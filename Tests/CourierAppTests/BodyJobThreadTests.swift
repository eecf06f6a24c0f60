import CourierBody
import CourierTestSupport
import Foundation
import Testing
@testable import CourierApp

/// Body jobs that wait for a body still arriving (a stream that never ends) wait on threads of their own:
/// a search or filter open on such a response must not hold the cooperative pool, which every send, retry
/// and WebSocket of the explorer needs (two threads on a two-core machine).
@Suite("Body jobs on their own threads")
struct BodyJobThreadTests {
    /// A body that has started to arrive, has no complete line yet and never finishes; it signals each
    /// time a job asks it for lines, so the test knows the job is running and waiting.
    final class EndlessBody: LineSource {
        let asked = DispatchSemaphore(value: 0)
        var lineCount: Int { 0 }
        var isComplete: Bool { false }
        func line(_ index: Int) -> String { "" }
        func forEachLineBytes(from start: Int, limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Void) -> Int {
            asked.signal()
            return 0
        }
        func indexMore() -> Bool { true }
    }

    @Test("more searches than cores waiting on an arriving body each run, and leave the pool free for other work")
    func waitingJobsLeaveThePoolFree() async throws {
        let runner = BodyJobRunner(queue: ActionQueue {})
        let search = try BodySearch(SearchQuery("padding"))
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        // When more searches than the pool has threads wait on an endless body (each gets its own), every
        // one asks it for lines, and other work of the same priority is scheduled meanwhile; watched from a
        // thread of its own, since a starved pool could not resume this test
        let ranMeanwhile = await OwnThread.run {
            defer { runner.cancelAll() }
            let bodies = (0..<count).map { _ in EndlessBody() }
            for (generation, body) in bodies.enumerated() {
                runner.start(BodyJob(generation: generation + 1, work: .search(search, in: body)))
            }
            for body in bodies where body.asked.wait(timeout: .now() + 60) != .success { return false }
            let ran = DispatchSemaphore(value: 0)
            Task.detached(priority: .userInitiated) { ran.signal() }
            return ran.wait(timeout: .now() + 60) == .success
        }
        // Then all of them ran, and so did that work
        #expect(ranMeanwhile, "\(count) waiting searches held every thread of the cooperative pool")
    }
}

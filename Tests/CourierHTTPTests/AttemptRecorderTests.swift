import CourierMessage
import Foundation
import Testing
@testable import CourierHTTP

/// The attempt records that the Log, `--json` and history read: per request, in order, bounded, and
/// the same whichever request is asked for after thousands of others.
@Suite struct AttemptRecorderTests {
    let url = URL(string: "http://stub.test/items")!

    private func start(_ recorder: AttemptRecorder, _ id: RequestID, attempt: Int) {
        recorder.record(.attemptStarted(id, attempt: attempt, method: .get, url: url, headers: HTTPHeaders(),
                                        at: Date()))
    }

    private func finish(_ recorder: AttemptRecorder, _ id: RequestID, attempt: Int, status: Int) {
        recorder.record(.attemptFinished(id, attempt: attempt, outcome: .response(status: status, headers: HTTPHeaders()),
                                         timing: nil))
    }

    @Test func interleavedRequestsKeepTheirOwnAttemptsInOrder() {
        let recorder = AttemptRecorder()
        let (first, second) = (RequestID.next(), RequestID.next())
        start(recorder, first, attempt: 1)
        start(recorder, second, attempt: 1)
        finish(recorder, first, attempt: 1, status: 503)
        recorder.record(.retryScheduled(first, attempt: 1, reason: "503", delay: .milliseconds(5)))
        start(recorder, first, attempt: 2)
        finish(recorder, second, attempt: 1, status: 200)
        finish(recorder, first, attempt: 2, status: 200)
        recorder.record(.cancelled(second, superseded: true))

        let attempts = recorder.attempts(for: first)
        #expect(attempts.map(\.attempt) == [1, 2])
        #expect(attempts.map(\.sequence) == [1, 2])
        #expect(attempts.map(\.status) == [503, 200])
        #expect(attempts[0].retryReason == "503")
        #expect(recorder.attempts(for: second).map(\.superseded) == [true])
        #expect(recorder.all.map(\.requestID) == [first, second, first])
    }

    @Test func theOldestRecordsGoFirstPastTheLimit() {
        let recorder = AttemptRecorder(limit: 3)
        let ids = (0..<5).map { _ in RequestID.next() }
        for id in ids { start(recorder, id, attempt: 1); finish(recorder, id, attempt: 1, status: 200) }
        #expect(recorder.all.map(\.requestID) == Array(ids.suffix(3)))
        #expect(recorder.attempts(for: ids[0]).isEmpty)
        #expect(recorder.attempts(for: ids[4]).map(\.status) == [200])
        // An event for a request already let go of changes nothing.
        finish(recorder, ids[0], attempt: 1, status: 500)
        #expect(recorder.all.count == 3)
    }

    @Test func aForgottenRequestLeavesNothingAndTheLimitStillHolds() {
        let recorder = AttemptRecorder(limit: 3)
        let ids = (0..<6).map { _ in RequestID.next() }
        for id in ids.prefix(3) { start(recorder, id, attempt: 1); finish(recorder, id, attempt: 1, status: 200) }
        recorder.record(.cacheDecision(ids[1], CacheReport(decision: .fresh)))
        recorder.forget(ids[1])
        #expect(recorder.attempts(for: ids[1]).isEmpty)
        #expect(recorder.cacheReport(for: ids[1]) == nil)
        #expect(recorder.all.map(\.requestID) == [ids[0], ids[2]])
        // Past the limit the oldest still go first, over the gap the forgotten request left.
        for id in ids.suffix(3) { start(recorder, id, attempt: 1); finish(recorder, id, attempt: 1, status: 200) }
        #expect(recorder.all.map(\.requestID) == Array(ids.suffix(3)))
        // Forgetting each request as it finishes keeps nothing.
        for id in ids.suffix(3) { recorder.forget(id) }
        #expect(recorder.all.isEmpty)
        start(recorder, ids[0], attempt: 1)
        #expect(recorder.attempts(for: ids[0]).map(\.sequence) == [1])
    }

    @Test func cacheReportsAreBoundedAsRecordsAre() {
        let recorder = AttemptRecorder(limit: 4)
        let ids = (0..<20).map { _ in RequestID.next() }
        for id in ids { recorder.record(.cacheDecision(id, CacheReport(decision: .fresh))) }
        #expect(recorder.cacheReport(for: ids[0]) == nil)
        #expect(ids.suffix(4).allSatisfy { recorder.cacheReport(for: $0)?.decision == .fresh })
    }

    @Test func manyRequestsEachFindTheirOwn() {
        let recorder = AttemptRecorder()
        let ids = (0..<8_000).map { _ in RequestID.next() }
        var misses = 0
        for id in ids {
            start(recorder, id, attempt: 1)
            finish(recorder, id, attempt: 1, status: 200)
            if recorder.attempts(for: id).map(\.status) != [200] { misses += 1 }
        }
        #expect(misses == 0)
        #expect(recorder.all.count == 8_000)
    }
}

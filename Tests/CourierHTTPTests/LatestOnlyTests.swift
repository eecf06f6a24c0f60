import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// Cancel-previous debounce with a clock that moves only when the test says so.
@Suite struct LatestOnlyTests {
    /// Collects outcomes delivered by LatestOnly.
    final class Outcomes: Sendable {
        private let items = Mutex<[LatestOnly<Int>.Outcome]>([])
        func add(_ outcome: LatestOnly<Int>.Outcome) { items.withLock { $0.append(outcome) } }
        var all: [LatestOnly<Int>.Outcome] { items.withLock { $0 } }
        var completed: [(UInt64, Int)] {
            all.compactMap { outcome in
                if case .completed(let generation, .success(let value)) = outcome { return (generation, value) }
                return nil
            }
        }
        var superseded: [(UInt64, Bool)] {
            all.compactMap { outcome in
                if case .superseded(let generation, let sent) = outcome { return (generation, sent) }
                return nil
            }
        }
    }

    @Test func aBurstOfEditsProducesOneSend() async throws {
        // Given a 300 ms debounce
        let clock = ManualSleeper()
        let outcomes = Outcomes()
        let sends = Mutex(0)
        let latest = LatestOnly<Int>(debounce: .milliseconds(300), sleeper: clock) { outcomes.add($0) }
        // When five edits arrive 100 ms apart
        for value in 1...5 {
            latest.submit { sends.withLock { $0 += 1 }; return value }
            #expect(await LoopbackServer.eventually { clock.startedCount == value && clock.sleeperCount == 1 })
            clock.advance(by: .milliseconds(100))
        }
        // Then only after the last edit's debounce runs out is anything sent: once, with the last value
        #expect(sends.withLock { $0 } == 0)
        clock.advance(by: .milliseconds(200))
        #expect(await LoopbackServer.eventually { outcomes.completed.count == 1 })
        #expect(sends.withLock { $0 } == 1)
        #expect(outcomes.completed.first?.0 == 5)
        #expect(outcomes.completed.first?.1 == 5)
        #expect(await LoopbackServer.eventually { outcomes.superseded.count == 4 })
        #expect(outcomes.superseded.allSatisfy { !$0.1 })
    }

    @Test func anEditDuringATransferCancelsIt() async throws {
        let clock = ManualSleeper()
        let outcomes = Outcomes()
        let started = Mutex(0)
        let latest = LatestOnly<Int>(debounce: .milliseconds(300), sleeper: clock) { outcomes.add($0) }
        // Given a first submission whose work is in flight (waiting until cancelled)
        latest.submit {
            started.withLock { $0 += 1 }
            try await Task.sleep(for: .seconds(60))
            return 1
        }
        #expect(await LoopbackServer.eventually { clock.sleeperCount == 1 })
        clock.advance(by: .milliseconds(300))
        #expect(await LoopbackServer.eventually { started.withLock { $0 } == 1 })
        // When a new edit arrives
        latest.submit { 2 }
        // Then the first is cancelled while sent, and reported superseded, not failed
        #expect(await LoopbackServer.eventually { outcomes.superseded.count == 1 })
        #expect(outcomes.superseded.first?.0 == 1)
        #expect(outcomes.superseded.first?.1 == true)
        #expect(await LoopbackServer.eventually { clock.startedCount == 2 && clock.sleeperCount == 1 })
        clock.advance(by: .milliseconds(300))
        #expect(await LoopbackServer.eventually { outcomes.completed.count == 1 })
        #expect(outcomes.completed.first?.1 == 2)
    }

    @Test func aStaleResultIsDroppedEvenIfItFinishesLater() async throws {
        // Given work that ignores cancellation and finishes after a newer submission
        let clock = ManualSleeper()
        let outcomes = Outcomes()
        let gate = Mutex(false)
        let latest = LatestOnly<Int>(debounce: .zero, sleeper: clock) { outcomes.add($0) }
        latest.submit {
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            return 1
        }
        try await Task.sleep(for: .milliseconds(20))
        latest.submit { 2 }
        #expect(await LoopbackServer.eventually { outcomes.completed.count == 1 })
        gate.withLock { $0 = true }
        #expect(await LoopbackServer.eventually { outcomes.all.count == 2 })
        // Then only generation 2 was delivered as completed; generation 1 came back superseded
        #expect(outcomes.completed.map(\.0) == [2])
        #expect(outcomes.superseded.map(\.0) == [1])
    }

    @Test func cancelStopsThePendingSubmission() async throws {
        let clock = ManualSleeper()
        let outcomes = Outcomes()
        let latest = LatestOnly<Int>(debounce: .milliseconds(300), sleeper: clock) { outcomes.add($0) }
        latest.submit { 1 }
        #expect(await LoopbackServer.eventually { clock.sleeperCount == 1 })
        latest.cancel()
        #expect(await LoopbackServer.eventually { outcomes.superseded.count == 1 })
        #expect(outcomes.completed.isEmpty)
    }
}

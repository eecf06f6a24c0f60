import Foundation

/// How many children `ChildProcess.run` lets run at once across the whole test run. Tests that await their
/// children run in parallel without bound; without this a hundred `courier` processes would start together
/// on a two-core machine and every timing in them would stretch past its margin.
actor ChildSlots {
    static let shared = ChildSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount * 2))

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    /// Waits for a free slot and takes it.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

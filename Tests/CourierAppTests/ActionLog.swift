import CourierApp
import Foundation
import Synchronization

/// Every action a queue has delivered, and a poll for one that matches: the one way tests wait on the
/// effect runner.
final class ActionLog: Sendable {
    let queue: ActionQueue
    private let seen = Mutex<[Action]>([])

    init(_ queue: ActionQueue) { self.queue = queue }

    /// Every action so far.
    func actions() -> [Action] {
        let new = queue.drain()
        return seen.withLock { $0 += new; return $0 }
    }

    /// Polls (every 10 ms, `polls` times) until an action matches.
    func waitFor<T>(polls: Int = 1000, _ match: (Action) -> T?) async -> T? {
        for _ in 0..<polls {
            if let found = actions().lazy.compactMap(match).first { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

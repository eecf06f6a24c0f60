import Dispatch
import Synchronization

/// Where effects post their results: a locked list the run loop drains, and a wake-up so the loop,
/// blocked waiting for input, comes round at once instead of polling.
public final class ActionQueue: Sendable {
    private let pending = Mutex<[Action]>([])
    private let wake: @Sendable () -> Void

    public init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// Adds an action from any thread and wakes the loop.
    public func post(_ action: Action) {
        pending.withLock { $0.append(action) }
        posted.signal()
        wake()
    }

    /// Counts posts, for a wait on the queue alone (`waitForPost`), before the loop reads any input.
    private let posted = DispatchSemaphore(value: 0)

    /// Blocks until something is posted or `deadline` passes; false when it passed. A post made before the
    /// call may return at once: the caller drains and checks what it waits for again.
    public func waitForPost(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
        return posted.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }

    /// Takes every action posted so far, oldest first.
    public func drain() -> [Action] { pending.withLock { actions in defer { actions = [] }; return actions } }

    public var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}

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
        wake()
    }

    /// Takes every action posted so far, oldest first.
    public func drain() -> [Action] { pending.withLock { actions in defer { actions = [] }; return actions } }

    public var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}

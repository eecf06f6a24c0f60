import Synchronization

/// A flag one thread sets to tell work running on another thread (a connection attempt, a body job) to stop,
/// where `Task.isCancelled` cannot see the task's cancellation.
public final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Whether the work was told to stop.
    public var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Tells the work to stop.
    public func set() { flag.store(true, ordering: .releasing) }
}

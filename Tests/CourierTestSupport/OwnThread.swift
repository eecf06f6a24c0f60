import Foundation
import Synchronization

/// Runs blocking work (a run loop that waits like a terminal, a body job waiting for a body still arriving)
/// on a thread of its own and awaits its result. A test that blocked a cooperative thread instead could
/// starve the background tasks it waits for: the pool has as many threads as cores, two here, shared by
/// every parallel test.
public enum OwnThread {
    /// `work`'s result, computed on a new thread.
    @discardableResult
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// `work`'s result, computed on a new thread; the closure it is given answers true once the awaiting
    /// task is cancelled (`Task.isCancelled` cannot see that from another thread).
    @discardableResult
    public static func run<T: Sendable>(cancellable work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> T) async -> T {
        let flag = Flag()
        return await withTaskCancellationHandler {
            await run { work { flag.isSet } }
        } onCancel: {
            flag.set()
        }
    }

    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }
}

import Foundation

/// Runs blocking work (a run loop that waits like a terminal, a synchronous read) on a thread of its own
/// and awaits its result. A test that blocked a cooperative thread instead could starve the background
/// tasks it waits for: the pool has as many threads as cores, two here, shared by every parallel test.
public enum OwnThread {
    /// `work`'s result, computed on a new thread.
    @discardableResult
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

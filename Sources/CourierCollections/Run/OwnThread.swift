import Foundation

/// Blocking work (a request script may run to its time limit) on a thread of its own, awaited without holding
/// a thread of the cooperative pool the rest of the process's work runs on.
public enum OwnThread {
    /// Runs `work` on a new thread and returns its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

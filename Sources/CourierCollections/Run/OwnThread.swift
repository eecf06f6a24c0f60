import CourierHTTP
import Foundation

/// Blocking work (a request script may run to its time limit) on a thread of its own, awaited without holding
/// a thread of the cooperative pool the rest of the process's work runs on.
public enum OwnThread {
    /// Runs `work` on a new thread called `name` (as top and gdb show it) and returns its result. Cancelling
    /// the calling task sets the flag `work` is given, which a thread cannot learn from `Task.isCancelled`: a
    /// script stops at its watchdog's next check, or its process is killed, so a cancelled send (the explorer's
    /// Ctrl-C) leaves nothing computing.
    public static func run<T: Sendable>(named name: String = "courier.script",
                                        _ work: @escaping @Sendable (CancelFlag) -> T) async -> T {
        let cancel = CancelFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    nameThisThread(name)
                    continuation.resume(returning: work(cancel))
                }.start()
            }
        } onCancel: {
            cancel.set()
        }
    }

    /// Gives the calling thread `name` (`/proc/PID/task/TID/comm`): Foundation on Linux keeps a name set before
    /// `start()` to itself.
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

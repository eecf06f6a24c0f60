import CourierHTTP
import Foundation
import Synchronization

/// Blocking work (a request script may run to its time limit) on a thread of its own, awaited without holding
/// a thread of the cooperative pool the rest of the process's work runs on.
public enum OwnThread {
    /// Runs `work` on a thread of its own called `name` (as top and gdb show it) and returns its result.
    /// Cancelling the calling task sets the flag `work` is given, which a thread cannot learn from
    /// `Task.isCancelled`: a script stops at its watchdog's next check, or its process is killed, so a cancelled
    /// send (the explorer's Ctrl-C) leaves nothing computing.
    ///
    /// The thread is one that finished earlier work and waits for more (`KeptThreads`), or a new one when none
    /// does: each call still has a thread to itself for as long as it runs, so no work waits behind another.
    public static func run<T: Sendable>(named name: String = "courier.script",
                                        _ work: @escaping @Sendable (CancelFlag) -> T) async -> T {
        let cancel = CancelFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                KeptThreads.shared.run(named: name) {
                    continuation.resume(returning: work(cancel))
                }
            }
        } onCancel: {
            cancel.set()
        }
    }
}

/// Threads kept after their work, a few seconds each, for the next: a collection run starts a script for each
/// scripted request, and making a thread (its stack mapped, then faulted in) was a noticeable part of a short
/// script. At most `kept` wait at a time; a thread that finds that many waiting, or waits `idleSeconds` for
/// nothing, ends.
final class KeptThreads: Sendable {
    static let shared = KeptThreads()

    private static let kept = 4
    private static let idleSeconds = 5.0

    /// One thread's mailbox: its next job, handed over under the lock, and the semaphore that wakes it.
    private final class Waiting: @unchecked Sendable {
        let wake = DispatchSemaphore(value: 0)
        /// Written under `KeptThreads.waiting`'s lock before `wake` is signalled, read by its thread after.
        var job: (name: String, work: @Sendable () -> Void)?
    }

    private let waiting = Mutex<[Waiting]>([])

    func run(named name: String, _ work: @escaping @Sendable () -> Void) {
        let idle = waiting.withLock { threads -> Waiting? in
            guard let thread = threads.popLast() else { return nil }
            thread.job = (name, work)
            return thread
        }
        if let idle {
            idle.wake.signal()
            return
        }
        Thread { [self] in
            var name = name
            Self.nameThisThread(name)
            work()
            while let next = keep() {
                if next.name != name {
                    name = next.name
                    Self.nameThisThread(name)
                }
                next.work()
            }
        }.start()
    }

    /// Waits for the next job, or nil when this thread should end.
    private func keep() -> (name: String, work: @Sendable () -> Void)? {
        let mailbox = Waiting()
        let parked = waiting.withLock { threads -> Bool in
            guard threads.count < Self.kept else { return false }
            threads.append(mailbox)
            return true
        }
        guard parked else { return nil }
        if mailbox.wake.wait(timeout: .now() + Self.idleSeconds) == .timedOut {
            // Still listed: no job was handed over, and none can be now. Otherwise one was, and the signal follows.
            let gone = waiting.withLock { threads -> Bool in
                guard let index = threads.firstIndex(where: { $0 === mailbox }) else { return false }
                threads.remove(at: index)
                return true
            }
            if gone { return nil }
            mailbox.wake.wait()
        }
        return waiting.withLock { _ in mailbox.job }
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

import Foundation
import Synchronization

/// The curl loops of this process, stopped before it exits. A process's exit handlers free libcurl's and
/// OpenSSL's shared state (OpenSSL registers its clean-up when libcurl starts it); a loop thread still
/// tearing down a connection, or woken by one of libcurl's timers, at that moment would use freed memory.
/// A one-shot command ends right after its answer, which its task takes on the loop thread itself, so the
/// loop is stopped and its thread waited for first.
enum CurlLoopRegistry {
    private struct Entry: Sendable {
        weak var loop: CurlMultiLoop?
    }

    private static let entries = Mutex<[Entry]>([])

    /// Remembers `loop` (weakly) until the process exits.
    static func register(_ loop: CurlMultiLoop) {
        entries.withLock { entries in
            entries.removeAll { $0.loop == nil }
            entries.append(Entry(loop: loop))
        }
    }

    /// Stops every loop still alive and waits for their threads to end, at most `limit` in all (a thread busy
    /// with a long task job is not waited for longer; the loop's own thread never waits for itself).
    static func stopAll(limit: Duration = .seconds(2)) {
        let alive = entries.withLock { $0.compactMap(\.loop) }
        for loop in alive { loop.shutdown() }
        let deadline = ContinuousClock.now + limit
        for loop in alive {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            _ = loop.waitUntilStopped(limit: left)
        }
    }
}

/// Runs at exit before OpenSSL's clean-up (exit handlers run in the reverse order of their registration, and
/// this one is registered after libcurl's start registered OpenSSL's).
let stopCurlLoopsAtExit: @convention(c) () -> Void = { CurlLoopRegistry.stopAll() }

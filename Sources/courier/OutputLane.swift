import Dispatch

/// While `courier run` runs, what it prints is written on a thread of its own, in the order it was said: the
/// loop thread that sends the requests (and resolves, checks and records them) hands each finished request's
/// printing over and goes on to the next request while the response is being formatted, instead of keeping
/// the server waiting for that. Every `Console` line said meanwhile, from any thread, takes the same lane, so
/// the output reads exactly as if it had been written at once. At most `room` pieces of work wait: a printer
/// that falls behind (a large body, a slow pipe) holds the senders back rather than the responses in memory.
final class OutputLane: Sendable {
    private let queue = DispatchQueue(label: "courier.output")
    private let key = DispatchSpecificKey<Bool>()
    private let room: DispatchSemaphore

    init(room: Int = 4) {
        self.room = DispatchSemaphore(value: room)
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the caller runs on the lane itself (its work prints directly).
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// Runs `work` on the lane after everything handed over before it; waits while the lane is full.
    func hand(_ work: @escaping @Sendable () -> Void) {
        room.wait()
        queue.async {
            work()
            self.room.signal()
        }
    }

    /// Returns once everything handed over so far has been done.
    func drain() { queue.sync {} }
}

import CCurl
import Foundation
import Synchronization

/// The thread that owns one curl multi handle. Other threads only post jobs and cancellations to
/// its inbox and wake it; every easy handle and callback lives on this thread alone.
///
/// It is also a `TaskExecutor`: a task that prefers it (`CurlTransport.executor`) runs on this thread between
/// the loop's turns, so a request it sends and the response that resumes it never cross threads. `courier run`
/// and `courier load` send that way; their work is mostly waiting for the loop.
final class CurlMultiLoop: Sendable {
    private struct Inbox {
        var jobs: [any LoopJob] = []
        var cancels: [UInt64] = []
        var pokes: [UInt64] = []
        /// Task jobs enqueued on this loop as an executor, run in order on its thread.
        var work: [UnownedJob] = []
        var stopping = false
        /// The loop's wake-up descriptor (an eventfd its thread waits on) while the thread runs; nil before and
        /// after, when posting alone is enough: the loop reads the inbox when it starts and stops.
        var wakeDescriptor: Int32?
        /// A wake-up went out since the loop last emptied the inbox, so the loop turns again and takes
        /// whatever is posted meanwhile: later posters need not wake it again. The loop clears it when it
        /// takes the inbox, before it next waits, so a post after that wakes it again: none is lost.
        var woken = false
        /// Posters writing to the wake-up descriptor right now, outside the lock; the loop waits for them
        /// before it closes the descriptor (whose number could otherwise be reused by another file).
        var waking = 0

        var hasPosts: Bool { !jobs.isEmpty || !cancels.isEmpty || !pokes.isEmpty || !work.isEmpty }

        /// The descriptor to signal when this post must wake the loop, counted as a wake-up in flight.
        mutating func claimWakeUp() -> Int32? {
            guard !woken, let descriptor = wakeDescriptor else { return nil }
            woken = true
            waking += 1
            return descriptor
        }
    }

    private let inbox = Mutex(Inbox())
    private let boundsWaits: Bool
    /// Signalled when the thread has ended (and again by each waiter, for the next).
    private let ended = DispatchSemaphore(value: 0)
    /// The loop thread's `pthread_self`, 0 until it starts: what it posts itself needs no wake-up, since it
    /// looks at its inbox again before it waits.
    private let loopThread = Atomic<UInt>(0)

    /// `boundsWaits` false lets the thread sleep until a socket, libcurl's timer or a wake-up calls it, with no
    /// periodic turn to hide a lost wake-up or timer: how tests prove none is lost.
    init(boundsWaits: Bool = true) {
        self.boundsWaits = boundsWaits
        DetachedThread.start(name: "courier.curl") { [self] in
            run()
            ended.signal()
        }
        CurlLoopRegistry.register(self)
    }

    /// Waits (at most `limit`) for the thread to end after `shutdown()`; false when it has not, or when called
    /// on the loop thread itself.
    func waitUntilStopped(limit: Duration) -> Bool {
        guard pthread_self() != loopThread.load(ordering: .relaxed) else { return false }
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        guard ended.wait(timeout: .now() + seconds) == .success else { return false }
        ended.signal()
        return true
    }

    /// The loop thread's `pthread_self` (0 until it starts).
    var threadID: UInt { loopThread.load(ordering: .relaxed) }

    /// Queues a transfer; it starts on the loop's next turn.
    func submit(_ job: any LoopJob) {
        let accepted = post { inbox in
            guard !inbox.stopping else { return false }
            inbox.jobs.append(job)
            return true
        }
        if !accepted { job.fail(APIError.cancelled) }
    }

    /// Asks a running transfer to look at its state again on the loop thread (`LoopTransfer.poke`): a
    /// stream whose upload paused for want of bytes resumes once it has some.
    func poke(_ id: UInt64) {
        post { inbox in
            inbox.pokes.append(id)
            return true
        }
    }

    /// Aborts a transfer: its handle leaves the multi (closing its connection) and it throws `.cancelled`.
    func cancel(_ id: UInt64) {
        post { inbox in
            inbox.cancels.append(id)
            return true
        }
    }

    /// Runs a task's job on the loop thread (`TaskExecutor`); once the loop has stopped, on the global executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let work = UnownedJob(job)
        let accepted = post { inbox in
            guard !inbox.stopping else { return false }
            inbox.work.append(work)
            return true
        }
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(work)) }
    }

    /// Stops the thread; transfers still running end with `.cancelled`.
    func shutdown() {
        post { inbox in
            inbox.stopping = true
            return true
        }
    }

    /// Changes the inbox and, when `change` accepted, wakes the loop. The wake-up is a system call, so it is
    /// made after the lock is released (posters and the loop thread would otherwise queue behind it), and
    /// only by the first poster since the loop last looked.
    @discardableResult
    private func post(_ change: (inout Inbox) -> Bool) -> Bool {
        let onLoop = pthread_self() == loopThread.load(ordering: .relaxed)
        let (accepted, descriptor): (Bool, Int32?) = inbox.withLock { inbox in
            guard change(&inbox) else { return (false, nil) }
            return (true, onLoop ? nil : inbox.claimWakeUp())
        }
        if let descriptor {
            courier_wake_fd_signal(descriptor)
            inbox.withLock { $0.waking -= 1 }
        }
        return accepted
    }

    private func run() {
        guard let driver = CurlMultiDriver() else {
            let reason = "the curl loop could not start (curl_multi_init, epoll)"
            failEverything(with: APIError.protocolError(underlying: reason))
            return
        }
        loopThread.store(pthread_self(), ordering: .relaxed)
        inbox.withLock { $0.wakeDescriptor = driver.wakeDescriptor }
        let executor = asUnownedTaskExecutor()
        while true {
            let (jobs, cancels, pokes, work, stopping) = inbox.withLock { inbox in
                defer { inbox.jobs = []; inbox.cancels = []; inbox.pokes = []; inbox.work = []; inbox.woken = false }
                return (inbox.jobs, inbox.cancels, inbox.pokes, inbox.work, inbox.stopping)
            }
            // Adds come first: a cancel is only ever posted after its job (see TransferTicket).
            for job in jobs { driver.add(job) }
            for id in pokes { driver.poke(id) }
            for id in cancels { driver.cancel(id) }
            for job in work { job.runSynchronously(on: executor) }
            if stopping { break }
            // What the jobs just run posted is taken on the next turn, which then does not wait.
            let posted = inbox.withLock { $0.hasPosts }
            driver.turn(boundsWait: boundsWaits, mayWait: !posted)
        }
        driver.cancelAll()
        inbox.withLock { $0.wakeDescriptor = nil }
        // A poster may be writing to the descriptor it read before; no new one can start.
        while inbox.withLock({ $0.waking }) > 0 { sched_yield() }
        driver.close()
        failEverything(with: APIError.cancelled)
    }

    private func failEverything(with error: APIError) {
        let (jobs, work) = inbox.withLock { inbox in
            inbox.stopping = true
            defer { inbox.jobs = []; inbox.work = [] }
            return (inbox.jobs, inbox.work)
        }
        for job in jobs { job.fail(error) }
        for job in work { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}

extension CurlMultiLoop: TaskExecutor {}

/// A transfer waiting for the loop thread: it sets up the easy handle it is lent, or fails.
protocol LoopJob: Sendable {
    var id: UInt64 { get }
    /// Configures `easy` (fresh or reset) for this job; the loop adds it to the multi handle.
    func start(on easy: UnsafeMutableRawPointer) throws(APIError) -> any LoopTransfer
    /// Ends the job's caller with an error when it never started.
    func fail(_ error: APIError)
    /// Whether `easy`, left as `setup` says by the last transfer on it, is already set up for this job.
    func fits(_ setup: CurlHandleSetup) -> Bool
    /// Configures `easy` for this job, or only what differs from transfer to transfer when `kept` (which
    /// `fits` this job) says how the handle is set up already.
    func start(on easy: UnsafeMutableRawPointer, kept: CurlHandleSetup?) throws(APIError) -> any LoopTransfer
}

extension LoopJob {
    func fits(_ setup: CurlHandleSetup) -> Bool { false }

    func start(on easy: UnsafeMutableRawPointer, kept: CurlHandleSetup?) throws(APIError) -> any LoopTransfer {
        try start(on: easy)
    }
}

/// A transfer on the loop thread, whatever it carries (a whole response, or a stream of bytes).
protocol LoopTransfer: AnyObject {
    var id: UInt64 { get }
    var easy: UnsafeMutableRawPointer { get }
    /// curl finished the transfer with `code`.
    func complete(_ code: CURLcode)
    /// The transfer ends without curl's word (a cancel, a failed add).
    func finish(throwing error: APIError)
    /// Another thread asked this transfer to look at its state again (see `CurlMultiLoop.poke`).
    func poke()
    /// What the transfer left set on its handle, when the next transfer may use it as it is; nil: reset it.
    var keptSetup: CurlHandleSetup? { get }
    /// Whether, once complete, the same handle goes back on the multi handle for the same request again.
    var sendsAgain: Bool { get }
}

extension LoopTransfer {
    func poke() {}

    var keptSetup: CurlHandleSetup? { nil }

    var sendsAgain: Bool { false }
}

extension CurlJob: LoopJob {
    func start(on easy: UnsafeMutableRawPointer) throws(APIError) -> any LoopTransfer {
        try CurlTransfer(job: self, easy: easy, kept: nil)
    }

    func start(on easy: UnsafeMutableRawPointer, kept: CurlHandleSetup?) throws(APIError) -> any LoopTransfer {
        try CurlTransfer(job: self, easy: easy, kept: kept)
    }

    func fits(_ setup: CurlHandleSetup) -> Bool {
        CurlTransfer.keepsSetup(of: self) && setup.fits(request, configuration: configuration)
    }

    func fail(_ error: APIError) { continuation.resume(returning: .failure(error)) }
}

extension CurlTransfer: LoopTransfer {}

import CCurl
import Foundation
import Synchronization

/// The thread that owns one curl multi handle. Other threads only post jobs and cancellations to
/// its inbox and wake it; every easy handle and callback lives on this thread alone.
final class CurlMultiLoop: Sendable {
    private struct Inbox {
        var jobs: [any LoopJob] = []
        var cancels: [UInt64] = []
        var pokes: [UInt64] = []
        var stopping = false
        /// The multi handle's address while the thread runs, kept as a number so it can cross threads:
        /// posters only use it for `curl_multi_wakeup`, which libcurl makes safe from any thread.
        var multiAddress: UInt?
        /// A wake-up went out since the loop last emptied the inbox, so the loop turns again and takes
        /// whatever is posted meanwhile: later posters need not wake it again.
        var woken = false
        /// Posters calling `curl_multi_wakeup` right now, outside the lock; the loop waits for them before
        /// it frees the handle.
        var waking = 0

        /// The address to wake when this post must wake the loop, counted as a wake-up in flight.
        mutating func claimWakeUp() -> UInt? {
            guard !woken, let address = multiAddress else { return nil }
            woken = true
            waking += 1
            return address
        }
    }

    private let inbox = Mutex(Inbox())

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "courier.curl"
        thread.start()
    }

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
        let (accepted, address): (Bool, UInt?) = inbox.withLock { inbox in
            guard change(&inbox) else { return (false, nil) }
            return (true, inbox.claimWakeUp())
        }
        if let address, let multi = UnsafeMutableRawPointer(bitPattern: address) {
            curl_multi_wakeup(multi)
            inbox.withLock { $0.waking -= 1 }
        }
        return accepted
    }

    private func run() {
        guard let multi = curl_multi_init() else {
            failEverything(with: APIError.protocolError(underlying: "curl_multi_init failed"))
            return
        }
        let address = UInt(bitPattern: multi)
        inbox.withLock { $0.multiAddress = address }
        let driver = CurlMultiDriver(multi: multi)
        while true {
            let (jobs, cancels, pokes, stopping) = inbox.withLock { inbox in
                defer { inbox.jobs = []; inbox.cancels = []; inbox.pokes = []; inbox.woken = false }
                return (inbox.jobs, inbox.cancels, inbox.pokes, inbox.stopping)
            }
            // Adds come first: a cancel is only ever posted after its job (see TransferTicket).
            for job in jobs { driver.add(job) }
            for id in pokes { driver.poke(id) }
            for id in cancels { driver.cancel(id) }
            if stopping { break }
            driver.performAndCollect()
            driver.poll(timeoutMilliseconds: driver.isIdle ? 1000 : 100)
        }
        driver.cancelAll()
        inbox.withLock { $0.multiAddress = nil }
        // A poster may be inside curl_multi_wakeup with the address it read before; no new one can start.
        while inbox.withLock({ $0.waking }) > 0 { sched_yield() }
        curl_multi_cleanup(multi)
        failEverything(with: APIError.cancelled)
    }

    private func failEverything(with error: APIError) {
        let jobs = inbox.withLock { inbox in
            inbox.stopping = true
            defer { inbox.jobs = [] }
            return inbox.jobs
        }
        for job in jobs { job.fail(error) }
    }
}

/// The loop thread's own state: the multi handle and the transfers on it. Never leaves that thread.
final class CurlMultiDriver {
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: any LoopTransfer] = [:]
    private var byID: [UInt64: UnsafeMutableRawPointer] = [:]
    private var handles = CurlHandlePool()

    init(multi: UnsafeMutableRawPointer) { self.multi = multi }

    var isIdle: Bool { transfers.isEmpty }

    func add(_ job: any LoopJob) {
        guard let easy = handles.take() else {
            job.fail(APIError.protocolError(underlying: "curl_easy_init failed"))
            return
        }
        let transfer: any LoopTransfer
        do {
            transfer = try job.start(on: easy)
        } catch {
            handles.give(easy)
            job.fail(error)
            return
        }
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            let message = String(cString: curl_multi_strerror(code))
            transfer.finish(throwing: APIError.protocolError(underlying: message))
            handles.give(easy)
            return
        }
        transfers[transfer.easy] = transfer
        byID[job.id] = transfer.easy
    }

    func cancel(_ id: UInt64) {
        guard let easy = byID[id], let transfer = transfers[easy] else { return }
        remove(transfer)
        transfer.finish(throwing: APIError.cancelled)
        release(transfer)
    }

    func poke(_ id: UInt64) {
        guard let easy = byID[id], let transfer = transfers[easy] else { return }
        transfer.poke()
    }

    func cancelAll() {
        for transfer in transfers.values {
            remove(transfer)
            transfer.finish(throwing: APIError.cancelled)
            release(transfer)
        }
    }

    func performAndCollect() {
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while courier_multi_next_done(multi, &easy, &result) == 1 {
            guard let handle = easy, let transfer = transfers[handle] else { continue }
            remove(transfer)
            transfer.complete(result)
            release(transfer)
        }
    }

    func poll(timeoutMilliseconds: Int32) {
        var ready: Int32 = 0
        curl_multi_poll(multi, nil, 0, timeoutMilliseconds, &ready)
    }

    /// Keeps the transfer's handle for the next one.
    private func release(_ transfer: any LoopTransfer) {
        handles.give(transfer.easy)
    }

    private func remove(_ transfer: any LoopTransfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        transfers[transfer.easy] = nil
        byID[transfer.id] = nil
    }
}

/// A transfer waiting for the loop thread: it sets up the easy handle it is lent, or fails.
protocol LoopJob: Sendable {
    var id: UInt64 { get }
    /// Configures `easy` (fresh or reset) for this job; the loop adds it to the multi handle.
    func start(on easy: UnsafeMutableRawPointer) throws(APIError) -> any LoopTransfer
    /// Ends the job's caller with an error when it never started.
    func fail(_ error: APIError)
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
}

extension LoopTransfer {
    func poke() {}
}

extension CurlJob: LoopJob {
    func start(on easy: UnsafeMutableRawPointer) throws(APIError) -> any LoopTransfer {
        try CurlTransfer(job: self, easy: easy)
    }

    func fail(_ error: APIError) { continuation.resume(returning: .failure(error)) }
}

extension CurlTransfer: LoopTransfer {}

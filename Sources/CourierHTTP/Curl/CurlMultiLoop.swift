import CCurl
import Foundation
import Synchronization

/// The thread that owns one curl multi handle. Other threads only post jobs and cancellations to
/// its inbox and wake it; every easy handle and callback lives on this thread alone.
final class CurlMultiLoop: Sendable {
    private struct Inbox {
        var jobs: [CurlJob] = []
        var cancels: [UInt64] = []
        var stopping = false
        /// The multi handle's address while the thread runs, kept as a number so it can cross threads:
        /// posters only use it for `curl_multi_wakeup`, which libcurl makes safe from any thread.
        var multiAddress: UInt?

        func wake() {
            if let address = multiAddress, let multi = UnsafeMutableRawPointer(bitPattern: address) {
                curl_multi_wakeup(multi)
            }
        }
    }

    private let inbox = Mutex(Inbox())

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "courier.curl"
        thread.start()
    }

    /// Queues a transfer; it starts on the loop's next turn.
    func submit(_ job: CurlJob) {
        let refused: Bool = inbox.withLock { inbox in
            guard !inbox.stopping else { return true }
            inbox.jobs.append(job)
            inbox.wake()
            return false
        }
        if refused { job.continuation.resume(throwing: APIError.cancelled) }
    }

    /// Aborts a transfer: its handle leaves the multi (closing its connection) and it throws `.cancelled`.
    func cancel(_ id: UInt64) {
        inbox.withLock { inbox in
            inbox.cancels.append(id)
            inbox.wake()
        }
    }

    /// Stops the thread; transfers still running end with `.cancelled`.
    func shutdown() {
        inbox.withLock { inbox in
            inbox.stopping = true
            inbox.wake()
        }
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
            let (jobs, cancels, stopping) = inbox.withLock { inbox in
                defer { inbox.jobs = []; inbox.cancels = [] }
                return (inbox.jobs, inbox.cancels, inbox.stopping)
            }
            // Adds come first: a cancel is only ever posted after its job (see TransferTicket).
            for job in jobs { driver.add(job) }
            for id in cancels { driver.cancel(id) }
            if stopping { break }
            driver.performAndCollect()
            driver.poll(timeoutMilliseconds: driver.isIdle ? 1000 : 100)
        }
        driver.cancelAll()
        inbox.withLock { $0.multiAddress = nil }
        curl_multi_cleanup(multi)
        failEverything(with: APIError.cancelled)
    }

    private func failEverything(with error: APIError) {
        let jobs = inbox.withLock { inbox in
            inbox.stopping = true
            defer { inbox.jobs = [] }
            return inbox.jobs
        }
        for job in jobs { job.continuation.resume(throwing: error) }
    }
}

/// The loop thread's own state: the multi handle and the transfers on it. Never leaves that thread.
final class CurlMultiDriver {
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var byID: [UInt64: UnsafeMutableRawPointer] = [:]
    private var handles = CurlHandlePool()

    init(multi: UnsafeMutableRawPointer) { self.multi = multi }

    var isIdle: Bool { transfers.isEmpty }

    func add(_ job: CurlJob) {
        guard let easy = handles.take() else {
            job.continuation.resume(throwing: APIError.protocolError(underlying: "curl_easy_init failed"))
            return
        }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(job: job, easy: easy)
        } catch {
            handles.give(easy)
            job.continuation.resume(throwing: error)
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
        handles.give(transfer.easy)
    }

    func cancelAll() {
        for transfer in transfers.values {
            remove(transfer)
            transfer.finish(throwing: APIError.cancelled)
            handles.give(transfer.easy)
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
            handles.give(handle)
        }
    }

    func poll(timeoutMilliseconds: Int32) {
        var ready: Int32 = 0
        curl_multi_poll(multi, nil, 0, timeoutMilliseconds, &ready)
    }

    private func remove(_ transfer: CurlTransfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        transfers[transfer.easy] = nil
        byID[transfer.id] = nil
    }
}

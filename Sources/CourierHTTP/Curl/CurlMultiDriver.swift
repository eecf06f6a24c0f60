import CCurl

/// The loop thread's own state: the multi handle, the transfers on it, and the epoll set that tells which
/// of their sockets are ready. libcurl's socket interface (`curl_multi_socket_action`) says through two
/// callbacks which sockets to watch for what and when its next timeout falls, so a turn of the loop costs
/// what the ready sockets cost, not a poll over every connection. Never leaves the loop thread.
final class CurlMultiDriver {
    /// The eventfd other threads signal to wake the loop (`CurlMultiLoop.post`).
    let wakeDescriptor: Int32
    private let multi: UnsafeMutableRawPointer
    private let epoll: Int32
    private var transfers: [UnsafeMutableRawPointer: any LoopTransfer] = [:]
    private var byID: [UInt64: UnsafeMutableRawPointer] = [:]
    private var handles = CurlHandlePool()
    /// The sockets in the epoll set, as libcurl asked for them.
    private var watched: Set<Int32> = []
    /// When libcurl wants `CURL_SOCKET_TIMEOUT` acted on (it last said so through its timer callback); nil: no timer.
    private var deadline: ContinuousClock.Instant?
    private static let batch = 64
    private let readyDescriptors = UnsafeMutablePointer<Int32>.allocate(capacity: batch)
    private let readyFlags = UnsafeMutablePointer<Int32>.allocate(capacity: batch)
    private var closed = false

    /// Nil when libcurl or the kernel cannot make the multi handle, the epoll set or the eventfd.
    init?() {
        let epoll = courier_epoll_make()
        let wake = courier_wake_fd_make()
        guard epoll >= 0, wake >= 0, courier_epoll_watch(epoll, wake, CURL_POLL_IN, 0) == 0,
              let multi = curl_multi_init() else {
            courier_fd_close(epoll)
            courier_fd_close(wake)
            readyDescriptors.deallocate()
            readyFlags.deallocate()
            return nil
        }
        self.epoll = epoll
        self.wakeDescriptor = wake
        self.multi = multi
        let me = Unmanaged.passUnretained(self).toOpaque()
        courier_multi_setopt_callbacks(multi, { _, socket, what, userdata, _ in
            guard let userdata else { return -1 }
            Unmanaged<CurlMultiDriver>.fromOpaque(userdata).takeUnretainedValue().watch(socket, what: what)
            return 0
        }, { _, milliseconds, userdata in
            guard let userdata else { return -1 }
            Unmanaged<CurlMultiDriver>.fromOpaque(userdata).takeUnretainedValue().setTimer(milliseconds)
            return 0
        }, me)
    }

    deinit {
        close()
        readyDescriptors.deallocate()
        readyFlags.deallocate()
    }

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
        // Adding sets libcurl's timer to now: the transfer starts on this turn's timeout action.
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

    /// Waits for a ready socket, libcurl's timeout or a wake-up, lets libcurl act on what happened, and ends
    /// the transfers it finished. The wait is capped (a tenth of a second while transfers run, a second when
    /// idle) so that a timer libcurl did not report again still fires; `boundsWait` false waits without a cap,
    /// `mayWait` false not at all (the loop has work of its own waiting).
    func turn(boundsWait: Bool, mayWait: Bool = true) {
        let cap: Int32 = !mayWait ? 0 : !boundsWait ? -1 : isIdle ? 1000 : 100
        var timeout = cap
        if let deadline {
            let left = ContinuousClock.now.duration(to: deadline)
            let wanted = left <= .zero ? 0 : Int32(clamping: Int(left.milliseconds.rounded(.up)))
            timeout = cap < 0 ? wanted : min(cap, wanted)
        }
        let count = courier_epoll_wait(epoll, readyDescriptors, readyFlags, Int32(Self.batch), timeout)
        var running: Int32 = 0
        for index in 0..<Int(max(count, 0)) {
            let descriptor = readyDescriptors[index]
            if descriptor == wakeDescriptor {
                courier_wake_fd_drain(descriptor)
            } else {
                curl_multi_socket_action(multi, descriptor, readyFlags[index], &running)
            }
        }
        // A timeout action when libcurl's timer is due, and when the wait ran out with nothing ready.
        if let deadline, deadline <= ContinuousClock.now {
            self.deadline = nil
            curl_multi_socket_action(multi, courier_socket_timeout(), 0, &running)
        } else if count == 0 {
            curl_multi_socket_action(multi, courier_socket_timeout(), 0, &running)
        }
        collect()
    }

    /// Frees the multi handle (closing its cached connections) and the loop's descriptors; once only.
    func close() {
        guard !closed else { return }
        closed = true
        curl_multi_cleanup(multi)
        courier_fd_close(epoll)
        courier_fd_close(wakeDescriptor)
    }

    private func collect() {
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while courier_multi_next_done(multi, &easy, &result) == 1 {
            guard let handle = easy, let transfer = transfers[handle] else { continue }
            remove(transfer)
            transfer.complete(result)
            release(transfer)
        }
    }

    /// libcurl's socket callback: watch `socket` for reading, writing or both, or forget it.
    private func watch(_ socket: Int32, what: Int32) {
        let known = watched.contains(socket)
        _ = courier_epoll_watch(epoll, socket, what, known ? 1 : 0)
        if what == CURL_POLL_REMOVE {
            watched.remove(socket)
        } else if !known {
            watched.insert(socket)
        }
    }

    /// libcurl's timer callback: act on `CURL_SOCKET_TIMEOUT` in `milliseconds` (0: at once), or never (-1).
    private func setTimer(_ milliseconds: Int) {
        deadline = milliseconds < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
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

import CCurl

/// The loop thread's own state: the multi handle, the transfers on it, and the epoll set that tells which
/// of their sockets are ready. libcurl's socket interface (`curl_multi_socket_action`) says through two
/// callbacks which sockets to watch for what and when its next timeout falls, so a turn of the loop costs
/// what the ready sockets cost, not a poll over every connection. Never leaves the loop thread.
///
/// libcurl lets go of a kept connection's socket when a transfer ends and asks for it again for the next
/// one: two `epoll_ctl` calls per keep-alive request. A socket libcurl opened through this driver (its
/// open and close socket callbacks, so its closing is seen) stays in the epoll set meanwhile, and is
/// taken out only if it turns ready while nobody wants it (the server closed the idle connection) or
/// when it is closed.
final class CurlMultiDriver {
    /// The eventfd other threads signal to wake the loop (`CurlMultiLoop.post`).
    let wakeDescriptor: Int32
    private let multi: UnsafeMutableRawPointer
    private let epoll: Int32
    private var transfers: [UnsafeMutableRawPointer: any LoopTransfer] = [:]
    private var byID: [UInt64: UnsafeMutableRawPointer] = [:]
    private var handles = CurlHandlePool()
    /// The sockets in the epoll set, with what each is watched for (`CURL_POLL_IN`, `_OUT`, `_INOUT`).
    private var registered: [Int32: Int32] = [:]
    /// The registered sockets libcurl wants watched now; the others are kept connections between transfers.
    private var wanted: Set<Int32> = []
    /// Connection sockets libcurl opened through this driver and has not closed yet.
    private var openSockets: Set<Int32> = []
    /// What libcurl's open and close socket callbacks report to (`courier_easy_note_sockets`).
    private let socketNotes = UnsafeMutablePointer<courier_socket_notes>.allocate(capacity: 1)
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
            socketNotes.deallocate()
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
        socketNotes.initialize(to: courier_socket_notes(opened: { userdata, socket in
            guard let userdata else { return }
            Unmanaged<CurlMultiDriver>.fromOpaque(userdata).takeUnretainedValue().didOpen(socket)
        }, closing: { userdata, socket in
            guard let userdata else { return }
            Unmanaged<CurlMultiDriver>.fromOpaque(userdata).takeUnretainedValue().willClose(socket)
        }, userp: me))
    }

    deinit {
        close()
        readyDescriptors.deallocate()
        readyFlags.deallocate()
        socketNotes.deallocate()
    }

    var isIdle: Bool { transfers.isEmpty }

    func add(_ job: any LoopJob) {
        guard let (easy, setup) = handles.take(for: job) else {
            job.fail(APIError.protocolError(underlying: "curl_easy_init failed"))
            return
        }
        let transfer: any LoopTransfer
        do {
            transfer = try job.start(on: easy, kept: setup)
        } catch {
            handles.give(easy)
            job.fail(error)
            return
        }
        courier_easy_note_sockets(easy, socketNotes)
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
            } else if wanted.contains(descriptor) {
                curl_multi_socket_action(multi, descriptor, readyFlags[index], &running)
            } else {
                // A kept connection between transfers, closed or written to by the server: libcurl finds out
                // when it next checks the connection; until then nothing needs to hear of it.
                unregister(descriptor)
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
        // The connections closed now need no tidying: the epoll set goes too.
        socketNotes.pointee.userp = nil
        curl_multi_cleanup(multi)
        courier_fd_close(epoll)
        courier_fd_close(wakeDescriptor)
    }

    private func collect() {
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while courier_multi_next_done(multi, &easy, &result) == 1 {
            guard let handle = easy, let transfer = transfers[handle] else { continue }
            curl_multi_remove_handle(multi, handle)
            transfer.complete(result)
            // A transfer that sends its request again (`CurlRepeatTransfer`) goes back on the multi handle as it
            // is: libcurl keeps the handle's options, and its connection waits in the multi's cache.
            if transfer.sendsAgain {
                let code = curl_multi_add_handle(multi, handle)
                if code == CURLM_OK { continue }
                let message = String(cString: curl_multi_strerror(code))
                transfer.finish(throwing: APIError.protocolError(underlying: message))
            }
            transfers[handle] = nil
            byID[transfer.id] = nil
            release(transfer)
        }
    }

    /// libcurl's socket callback: watch `socket` for reading, writing or both, or forget it. A connection
    /// socket of this driver's stays registered when forgotten; asked for again as it was, it costs nothing.
    private func watch(_ socket: Int32, what: Int32) {
        guard what != CURL_POLL_REMOVE else {
            wanted.remove(socket)
            if !openSockets.contains(socket) { unregister(socket) }
            return
        }
        wanted.insert(socket)
        let current = registered[socket]
        guard current != what else { return }
        _ = courier_epoll_watch(epoll, socket, what, current == nil ? 0 : 1)
        registered[socket] = what
    }

    /// Takes `socket` out of the epoll set.
    private func unregister(_ socket: Int32) {
        guard registered.removeValue(forKey: socket) != nil else { return }
        _ = courier_epoll_watch(epoll, socket, CURL_POLL_REMOVE, 1)
    }

    /// libcurl opened a connection socket. Its number may be one a closed descriptor had: nothing of that
    /// one's registration is kept.
    private func didOpen(_ socket: Int32) {
        registered[socket] = nil
        wanted.remove(socket)
        openSockets.insert(socket)
    }

    /// libcurl is about to close a connection socket.
    private func willClose(_ socket: Int32) {
        unregister(socket)
        wanted.remove(socket)
        openSockets.remove(socket)
    }

    /// libcurl's timer callback: act on `CURL_SOCKET_TIMEOUT` in `milliseconds` (0: at once), or never (-1).
    private func setTimer(_ milliseconds: Int) {
        deadline = milliseconds < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
    }

    /// Keeps the transfer's handle for the next one, with the setup it leaves when the next may use it.
    private func release(_ transfer: any LoopTransfer) {
        handles.give(transfer.easy, setup: transfer.keptSetup)
    }

    private func remove(_ transfer: any LoopTransfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        transfers[transfer.easy] = nil
        byID[transfer.id] = nil
    }
}

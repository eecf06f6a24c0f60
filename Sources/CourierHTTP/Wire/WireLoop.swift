import CCurl
import CHTTPParser
import Foundation

/// The thread of one `WireRepeater` run: its connections in one epoll set, level triggered, each always watched
/// for reading. In the common case an exchange is one send of the request's bytes and one receive of the whole
/// response, parsed as it comes; the next request goes out at once on the same connection. Connections are opened
/// by libcurl on a multi handle, which the loop drives only while one is being opened, waiting on both at once
/// (`courier_wire_multi_step` polls the epoll set beside libcurl's sockets).
final class WireLoop {
    private let wire: WireRepeater
    private let hooks: CurlRepeater.Hooks
    private let control: WireControl
    private let url: String
    private var connections: [WireConnection] = []
    private let epoll: Int32
    private let multi: UnsafeMutableRawPointer?
    private var opening = 0
    private var live = 0
    private var handedOver = false
    /// When the exchanges' deadlines are next looked at; nil when nothing is timed.
    private var nextCheck: ContinuousClock.Instant?
    private let timeout: Duration?
    /// libcurl's idle limit (`CURLOPT_LOW_SPEED_TIME`, whole seconds).
    private let idle: Duration?
    private static let bufferSize = 64 << 10
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: WireLoop.bufferSize, alignment: 16)
    private static let wakeKey = UInt64.max

    init(wire: WireRepeater, hooks: CurlRepeater.Hooks, control: WireControl) {
        self.wire = wire
        self.hooks = hooks
        self.control = control
        url = wire.request.url.absoluteString
        epoll = courier_epoll_make()
        multi = curl_multi_init()
        timeout = wire.request.timeout
        idle = wire.configuration.idleTimeout.map { .seconds(max(1, CurlTransfer.milliseconds($0) / 1000)) }
    }

    /// Runs `count` connections, each with a request taken already, until none is left; true when a response
    /// handed the rest over.
    func run(_ count: Int) -> Bool {
        defer { tearDown() }
        guard epoll >= 0, multi != nil,
              courier_wire_watch(epoll, Int32(COURIER_WIRE_ADD.rawValue), control.wakeFD, Self.wakeKey, 0) == 0 else {
            for _ in 0..<count { hooks.giveBack() }
            return true
        }
        let keepsCookies = wire.jar != nil
        for index in 0..<count {
            let connection = WireConnection(key: UInt64(index), headOnly: wire.request.method == .head,
                                            bodyLimit: wire.configuration.maxBodySize, keepsCookies: keepsCookies)
            connections.append(connection)
            live += 1
            connection.begin(at: .now, reused: false)
            open(connection)
        }
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
        let writable = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { keys.deallocate(); writable.deallocate() }
        while live > 0, !control.isCancelled {
            let wait = waitMilliseconds()
            var ready: Int32
            if opening > 0, let multi {
                var running: Int32 = 0
                _ = courier_wire_multi_step(multi, epoll, wait, &running)
                takeOpened()
                ready = courier_wire_wait(epoll, keys, writable, 64, 0)
            } else {
                ready = courier_wire_wait(epoll, keys, writable, 64, wait)
            }
            if ready < 0 { ready = 0 }
            for index in 0..<Int(ready) {
                let key = keys[index]
                if key == Self.wakeKey {
                    courier_wake_fd_drain(control.wakeFD)
                    continue
                }
                let connection = connections[Int(key)]
                guard connection.socket >= 0 else { continue }
                if writable[index] != 0 { send(connection) } else { receive(connection) }
            }
            if let nextCheck, ContinuousClock.now >= nextCheck { checkDeadlines() }
        }
        return handedOver
    }

    // MARK: Connections

    /// Has libcurl open a new connection for `connection`'s exchange.
    private func open(_ connection: WireConnection) {
        guard let multi, let easy = CurlEasy.make() else {
            // Without a handle there is no connection to go on with: the exchange fails and the connection ends.
            let error = CurlErrors.map(CURLE_FAILED_INIT, message: "no curl handle", certificate: nil)
            hooks.record(RepeatedExchange(status: nil, error: error,
                                          timing: connection.timing(at: .now, bodySent: wire.bodySize)))
            return end(connection)
        }
        courier_easy_setopt_str(easy, CURLOPT_URL, url)
        CurlEasy.applyTLSAndTimeouts(of: wire.request, configuration: wire.configuration, on: easy)
        courier_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        courier_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1)
        connection.errorBuffer[0] = 0
        courier_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, connection.errorBuffer)
        connection.easy = easy
        connection.phase = .connecting
        opening += 1
        curl_multi_add_handle(multi, easy)
    }

    /// Takes the connections libcurl finished opening: each sends its request, or records why it could not.
    private func takeOpened() {
        guard let multi else { return }
        var easy: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while courier_multi_next_done(multi, &easy, &code) != 0 {
            guard let done = easy,
                  let connection = connections.first(where: { $0.phase == .connecting && $0.easy == done }) else {
                continue
            }
            opening -= 1
            connection.phase = .sending
            connection.takeConnectTimes()
            var socket: curl_socket_t = -1
            if code == CURLE_OK { courier_easy_getinfo_socket(done, &socket) }
            guard code == CURLE_OK, socket >= 0,
                  courier_wire_watch(epoll, Int32(COURIER_WIRE_ADD.rawValue), socket, connection.key, 0) == 0 else {
                let message = connection.errorBuffer[0] != 0 ? String(cString: connection.errorBuffer)
                                                             : String(cString: curl_easy_strerror(code))
                // The system's error tells a refused port from a missing route, as for libcurl's own transfers.
                var osErrno = 0
                courier_easy_getinfo_long(done, CURLINFO_OS_ERRNO, &osErrno)
                fail(connection, code: code == CURLE_OK ? CURLE_COULDNT_CONNECT : code, message: message,
                     osErrno: osErrno)
                continue
            }
            connection.socket = socket
            connection.watchesWrites = false
            courier_wire_response_init(connection.response)
            schedule(connection)
            send(connection)
        }
    }

    /// Closes `connection`'s socket (libcurl closes it with the handle).
    private func close(_ connection: WireConnection) {
        if connection.socket >= 0 {
            _ = courier_wire_watch(epoll, Int32(COURIER_WIRE_REMOVE.rawValue), connection.socket, 0, 0)
            connection.socket = -1
        }
        if connection.phase == .connecting, connection.easy != nil { opening -= 1 }
        if let easy = connection.easy {
            if let multi { curl_multi_remove_handle(multi, easy) }
            curl_easy_cleanup(easy)
            connection.easy = nil
        }
    }

    private func end(_ connection: WireConnection) {
        guard connection.phase != .ended else { return }
        close(connection)
        connection.phase = .ended
        live -= 1
    }

    private func tearDown() {
        for connection in connections where connection.phase != .ended { end(connection) }
        if let multi { curl_multi_cleanup(multi) }
        courier_fd_close(epoll)
        buffer.deallocate()
    }

    // MARK: Exchanges

    /// The next request on `connection`, if the run lets one start (at `now`, the last one's end): on the same
    /// connection when `reuse`.
    private func proceed(_ connection: WireConnection, reuse: Bool, at now: ContinuousClock.Instant) {
        guard !handedOver, !control.isCancelled, hooks.next() else { return end(connection) }
        if reuse, connection.socket >= 0 {
            connection.begin(at: now, reused: true)
            connection.phase = .sending
            schedule(connection)
            send(connection)
        } else {
            close(connection)
            connection.begin(at: now, reused: false)
            open(connection)
        }
    }

    /// Writes what is left of the request; waits for the socket when it takes only part.
    private func send(_ connection: WireConnection) {
        let total = wire.bytes.count
        let sent = wire.bytes.withUnsafeBytes { bytes in
            courier_wire_send(connection.socket, bytes.baseAddress! + connection.written, total - connection.written)
        }
        if sent < 0 {
            let error = courier_wire_errno()
            if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { return watchWrites(connection, true) }
            return lost(connection, code: CURLE_SEND_ERROR,
                        message: "Send failure: " + String(cString: strerror(error)), error: error)
        }
        connection.written += sent
        if connection.written < total { return watchWrites(connection, true) }
        connection.phase = .receiving
        if connection.watchesWrites { watchWrites(connection, false) }
    }

    private func watchWrites(_ connection: WireConnection, _ on: Bool) {
        connection.watchesWrites = on
        _ = courier_wire_watch(epoll, Int32(COURIER_WIRE_MODIFY.rawValue), connection.socket, connection.key,
                               on ? 1 : 0)
    }

    /// Reads what the socket has (one receive) and parses it.
    private func receive(_ connection: WireConnection) {
        var error: Int32 = 0
        let got = courier_wire_recv(connection.socket, buffer, Self.bufferSize, &error)
        if got > 0 {
            let now = ContinuousClock.now
            if connection.received == 0 { connection.firstByte = now }
            connection.received += got
            connection.lastActivity = now
            let parsed = courier_wire_response_feed(connection.response, buffer.assumingMemoryBound(to: CChar.self),
                                                    got)
            return judge(connection, parsed, closed: false, at: now)
        }
        if got == 0 {
            // The server closed: a response delimited by the close ends here.
            let parsed = courier_wire_response_feed(connection.response, nil, 0)
            if connection.response.pointee.complete != 0 { return judge(connection, parsed, closed: true, at: .now) }
            return lost(connection, code: connection.received == 0 ? CURLE_GOT_NOTHING : CURLE_PARTIAL_FILE,
                        message: connection.received == 0 ? "Empty reply from server"
                            : "transfer closed with outstanding read data remaining", error: 0)
        }
        if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { return }
        lost(connection, code: CURLE_RECV_ERROR, message: "Recv failure: " + String(cString: strerror(error)),
             error: error)
    }

    /// What the parser made of the bytes so far: a complete response, an error, or more to read.
    private func judge(_ connection: WireConnection, _ parsed: http_errno, closed: Bool,
                       at now: ContinuousClock.Instant) {
        let response = connection.response.pointee
        if courier_wire_response_upgraded(connection.response) != 0 {
            return fail(connection, code: CURLE_WEIRD_SERVER_REPLY, message: "the server switched protocols",
                        afterConnecting: true)
        }
        if response.complete != 0 { return complete(connection, closed: closed, at: now) }
        if parsed == HPE_OK { return }
        if response.exceeded != 0 {
            return record(connection, error: .tooLarge(limit: wire.configuration.maxBodySize), reuse: false)
        }
        fail(connection, code: CURLE_WEIRD_SERVER_REPLY,
             message: String(cString: courier_wire_response_error(parsed)), afterConnecting: true)
    }

    /// A whole response: recorded unless it is a redirect the transport follows; a cookie hands the rest over.
    private func complete(_ connection: WireConnection, closed: Bool, at now: ContinuousClock.Instant) {
        let status = Int(connection.response.pointee.status)
        if status >= 300, status < 400, RedirectPolicy.followedStatuses.contains(status),
           RedirectPolicy.isFollowed(wire.request, status: status, location: connection.location) {
            // The ordinary way follows it; this request is sent again that way.
            handedOver = true
            hooks.giveBack()
            return end(connection)
        }
        let reuse = !closed && connection.response.pointee.keep_alive != 0
        hooks.record(RepeatedExchange(status: status, error: nil,
                                      timing: connection.timing(at: now, bodySent: wire.bodySize)))
        if !connection.cookies.isEmpty, let jar = wire.jar {
            jar.store(setCookie: connection.cookies, from: wire.request.url)
            // Later requests send the cookie: the ordinary way attaches the jar's cookies to each.
            handedOver = true
        }
        proceed(connection, reuse: reuse, at: now)
    }

    /// The connection ended before the response did. A kept connection the server had closed before any byte
    /// of the response is opened again and the request sent once more, as libcurl does; else the exchange fails.
    private func lost(_ connection: WireConnection, code: CURLcode, message: String, error: Int32) {
        if connection.received == 0, !connection.opened, !connection.resent {
            close(connection)
            connection.written = 0
            connection.opened = true
            connection.resent = true
            open(connection)
            return
        }
        fail(connection, code: code, message: message, afterConnecting: true, osErrno: Int(error))
    }

    /// Records the exchange as failed with libcurl's error for `code`, then goes on on a new connection.
    private func fail(_ connection: WireConnection, code: CURLcode, message: String, afterConnecting: Bool = false,
                      osErrno: Int = 0) {
        let error = CurlErrors.map(code, message: message, afterConnecting: afterConnecting, osErrno: osErrno,
                                   url: wire.request.url, certificate: wire.request.clientCertificate)
        record(connection, error: error, reuse: false)
    }

    private func record(_ connection: WireConnection, error: APIError, reuse: Bool) {
        let now = ContinuousClock.now
        hooks.record(RepeatedExchange(status: nil, error: error,
                                      timing: connection.timing(at: now, bodySent: wire.bodySize)))
        proceed(connection, reuse: reuse, at: now)
    }

    // MARK: Deadlines

    /// When `connection`'s exchange times out: the request's timeout from its start, or the idle limit from its
    /// last byte; nil when neither is set.
    private func deadline(of connection: WireConnection) -> ContinuousClock.Instant? {
        let whole = timeout.map { connection.started + $0 }
        let quiet = idle.map { connection.lastActivity + $0 }
        guard let whole else { return quiet }
        guard let quiet else { return whole }
        return min(whole, quiet)
    }

    /// Makes sure the deadlines are looked at by the time `connection`'s exchange is due.
    private func schedule(_ connection: WireConnection) {
        guard let due = deadline(of: connection) else { return }
        if let nextCheck, nextCheck <= due { return }
        nextCheck = due
    }

    private func checkDeadlines() {
        let now = ContinuousClock.now
        nextCheck = nil
        for connection in connections where connection.phase == .sending || connection.phase == .receiving {
            guard let due = deadline(of: connection) else { continue }
            if now < due {
                if nextCheck.map({ due < $0 }) ?? true { nextCheck = due }
                continue
            }
            let elapsed = Int((now - connection.started).milliseconds)
            fail(connection, code: CURLE_OPERATION_TIMEDOUT,
                 message: "Operation timed out after \(elapsed) milliseconds with \(connection.received) bytes "
                     + "received")
        }
    }

    /// How long the loop may wait: until the next deadline, and never past a second.
    private func waitMilliseconds() -> Int32 {
        guard let nextCheck else { return 1000 }
        let left = (nextCheck - .now).milliseconds
        return Int32(max(0, min(1000, left.rounded(.up))))
    }
}

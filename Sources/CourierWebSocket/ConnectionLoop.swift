import CourierHTTP
import CourierMessage
import Foundation

/// The connection thread's state machine: connect, handshake, then read, write, answer pings, send
/// keepalives and close, all driven by poll(2) on the socket and the wake-up pipe.
struct ConnectionLoop {
    /// Where the close handshake stands.
    private enum Phase { case open, closingByUs(code: WebSocketCloseCode, reason: String, byUser: Bool) }

    private let connection: WebSocketConnection
    private var configuration: WebSocketConfiguration { connection.configuration }
    private var pipe: CurlPipe?
    private var reader: MessageReader
    private var output: [UInt8] = []
    private var outputStart = 0
    private var phase = Phase.open
    private var closeDeadline: Double?
    private var nextPing: Double?
    private var pongDeadline: Double?
    private var pingSentAt: Double?
    private var pingPayload: [UInt8] = []
    private var pingCounter: UInt64 = 0
    /// Reads stopped on the budget rather than on EAGAIN, so TLS may hold bytes poll cannot see.
    private var moreToRead = false
    /// The answer to the newest ping not answered yet. Pongs are not queued one per ping: a peer that floods
    /// pings without reading our answers would grow `output` for ever. RFC 6455 (5.5.3) lets an endpoint
    /// answer only the most recent ping.
    private var pendingPong: [UInt8]?
    /// Since when reading has waited for the consumer (`DeliveryBacklog`); nil while reading.
    private var pausedSince: Double?

    /// Unsent bytes below which a pong joins `output`.
    private static let pongRoom = 64 * 1024

    /// How many bytes one receive call asks for, and how many receives run between polls.
    private static let chunkSize = 64 * 1024
    private static let readsPerTurn = 16

    init(connection: WebSocketConnection) {
        self.connection = connection
        reader = MessageReader(role: .client, maxMessageSize: connection.configuration.maxMessageSize)
    }

    /// Runs the connection to its end; returns how it ended and whether it had opened.
    mutating func run() -> (WebSocketCloseInfo, Bool) {
        do {
            try open()
        } catch {
            let byUser = connection.userClosed || error == .cancelled
            return (WebSocketCloseInfo(code: .abnormal, byUser: byUser, error: byUser ? nil : error), false)
        }
        return (runOpen(), true)
    }

    // MARK: - Opening

    private mutating func open() throws(WebSocketError) {
        let transportURL = try WebSocketHandshake.transportURL(for: configuration.url)
        let pipe = try CurlPipe()
        self.pipe = pipe
        try pipe.connect(to: transportURL, insecure: configuration.insecure,
                         trustedCertificates: configuration.trustedCertificates,
                         clientCertificate: configuration.clientCertificate, timeout: configuration.connectTimeout,
                         cancel: connection.cancelConnect)
        let handshake = WebSocketHandshake(url: configuration.url, headers: configuration.headers,
                                           protocols: configuration.protocols)
        let deadline = Monotonic.now + configuration.handshakeTimeout
        output = try handshake.requestBytes()
        while outputStart < output.count {
            try checkNotAbandoned()
            if case .failed(let message) = flush() { throw handshakeFailure(message) }
            if outputStart < output.count { try waitForSocket(write: true, until: deadline) }
        }
        output.removeAll()
        outputStart = 0
        var received: [UInt8] = []
        var parsed: (head: ResponseHead, length: Int)?
        while parsed == nil {
            try checkNotAbandoned()
            switch receiveSome(into: &received) {
            case .failed(let message): throw handshakeFailure(message)
            case .closed: throw .connectionLost(message: "the server closed the connection during the handshake")
            case .wouldBlock: try waitForSocket(write: false, until: deadline)
            case .done: parsed = try ResponseHead.parse(received)
            }
        }
        guard let (head, length) = parsed else { return }
        if head.status != 101 {
            throw .handshakeRejected(status: head.status, headers: head.headers,
                                     body: readBody(head: head, already: Array(received[length...])))
        }
        let chosen = try handshake.validate(head)
        if received.count > length { received[length...].withUnsafeBytes { reader.append($0) } }
        connection.onEvent(.connected(url: configuration.url, protocol: chosen))
        for message in connection.initialMessages {
            enqueue(message, isSubscription: true)
        }
        if let interval = configuration.pingInterval { nextPing = Monotonic.now + interval }
    }

    /// A refused upgrade's body, as much as arrives within a short wait (for the error message).
    private mutating func readBody(head: ResponseHead, already: [UInt8]) -> Data {
        let limit = min(Int(head.headers["Content-Length"] ?? "") ?? 64 * 1024, 64 * 1024)
        var body = already
        let deadline = Monotonic.now + 2
        while body.count < limit {
            switch receiveSome(into: &body) {
            case .done: continue
            case .wouldBlock:
                do { try waitForSocket(write: false, until: deadline) } catch { return Data(body.prefix(limit)) }
            case .closed, .failed: return Data(body.prefix(limit))
            }
        }
        return Data(body.prefix(limit))
    }

    private func checkNotAbandoned() throws(WebSocketError) {
        if connection.userClosed { throw .cancelled }
    }

    // MARK: - Open connection

    private mutating func runOpen() -> WebSocketCloseInfo {
        // Frames may have arrived in the same read as the handshake answer.
        if let ended = processIncoming() { return ended }
        while true {
            connection.wakePipe.drain()
            if let ended = handleCommands() { return ended }
            queuePendingPong()
            if case .failed(let message) = flush() {
                return WebSocketCloseInfo(code: .abnormal, error: .connectionLost(message: message))
            }
            if let ended = readAvailable() { return ended }
            if let ended = checkTimers() { return ended }
            pollOnce()
        }
    }

    private mutating func handleCommands() -> WebSocketCloseInfo? {
        for command in connection.takeCommands() {
            switch command {
            case .message(let message):
                if case .open = phase { enqueue(message, isSubscription: false) }
            case .ping:
                if case .open = phase { sendPing() }
            case .close(let code, let reason):
                startClose(code: code, reason: reason, byUser: true)
            case .abort:
                return WebSocketCloseInfo(code: .abnormal, byUser: true)
            }
        }
        return nil
    }

    private mutating func enqueue(_ message: WebSocketMessage, isSubscription: Bool) {
        FrameEncoder.append(message, role: .client, fragmentSize: configuration.fragmentSize, to: &output)
        connection.onEvent(.message(WebSocketMessageEvent(direction: .outgoing, message: message,
                                                          isSubscription: isSubscription)))
    }

    /// Puts the newest ping's answer into `output` once what is queued before it has (mostly) gone out.
    private mutating func queuePendingPong() {
        guard let pong = pendingPong, output.count - outputStart < Self.pongRoom else { return }
        pendingPong = nil
        if case .open = phase {
            FrameEncoder.append(control: WebSocketFrame(opcode: .pong, payload: pong), role: .client, to: &output)
        }
    }

    private mutating func sendPing() {
        pingCounter += 1
        pingPayload = withUnsafeBytes(of: pingCounter.bigEndian) { Array($0) }
        FrameEncoder.append(control: WebSocketFrame(opcode: .ping, payload: pingPayload), role: .client, to: &output)
        pingSentAt = Monotonic.now
        pongDeadline = Monotonic.now + configuration.pongTimeout
        connection.onEvent(.ping(time: Date()))
    }

    private mutating func startClose(code: WebSocketCloseCode, reason: String, byUser: Bool) {
        guard case .open = phase else { return }
        FrameEncoder.append(control: .close(code: code, reason: reason), role: .client, to: &output)
        phase = .closingByUs(code: code, reason: reason, byUser: byUser)
        closeDeadline = Monotonic.now + configuration.closeTimeout
    }

    /// Reads until the socket has nothing more or the turn's budget is spent, handling what arrives; reads
    /// nothing while the consumer is behind (back-pressure: the peer then waits on TCP).
    private mutating func readAvailable() -> WebSocketCloseInfo? {
        guard let pipe else { return WebSocketCloseInfo(code: .abnormal) }
        moreToRead = false
        let wakePipe = connection.wakePipe
        if connection.backlog.isFull(wake: { wakePipe.wake() }) {
            if pausedSince == nil { pausedSince = Monotonic.now }
            return nil
        }
        if let since = pausedSince {
            // A pong could not be read while paused: its deadline moves by the pause.
            pongDeadline = pongDeadline.map { $0 + (Monotonic.now - since) }
            pausedSince = nil
        }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        for _ in 0..<Self.readsPerTurn {
            let result = chunk.withUnsafeMutableBytes { pipe.receive(into: $0) }
            switch result {
            case .wouldBlock: return nil
            case .failed(let message):
                return endWithoutCloseFrame(message)
            case .closed:
                return endWithoutCloseFrame("the server closed the connection without a close frame")
            case .done(let count):
                chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if let ended = processIncoming() { return ended }
                // The next turn pauses if this read filled the consumer's room.
                if connection.backlog.isFull(wake: { wakePipe.wake() }) { return nil }
            }
        }
        moreToRead = true
        return nil
    }

    private func endWithoutCloseFrame(_ message: String) -> WebSocketCloseInfo {
        if case .closingByUs(let code, let reason, let byUser) = phase {
            return WebSocketCloseInfo(code: code, reason: reason, byUser: byUser)
        }
        return WebSocketCloseInfo(code: .abnormal, error: .connectionLost(message: message))
    }

    private mutating func processIncoming() -> WebSocketCloseInfo? {
        // Everything one read completed is handed over as one batch, in order, before anything else happens.
        var batch: [WebSocketEvent] = []
        defer { connection.deliver(batch) }
        do {
            while let incoming = try reader.next() {
                switch incoming {
                case .message(let message):
                    batch.append(.message(WebSocketMessageEvent(direction: .incoming, message: message)))
                case .ping(let payload):
                    if case .open = phase {
                        pendingPong = payload
                        queuePendingPong()
                    }
                case .pong(let payload):
                    var roundTrip: Double?
                    if let sentAt = pingSentAt, payload == pingPayload {
                        roundTrip = Monotonic.now - sentAt
                        pingSentAt = nil
                        pongDeadline = nil
                    }
                    batch.append(.pong(roundTrip: roundTrip))
                case .close(let code, let reason):
                    return closeReceived(code: code, reason: reason)
                }
            }
        } catch {
            return failProtocol(error)
        }
        return nil
    }

    private mutating func closeReceived(code: WebSocketCloseCode?, reason: String) -> WebSocketCloseInfo {
        if case .closingByUs(let ourCode, let ourReason, let byUser) = phase {
            return WebSocketCloseInfo(code: code ?? ourCode, reason: code == nil ? ourReason : reason, byUser: byUser,
                                      wasClean: true)
        }
        // Echo the peer's code, as RFC 6455 section 5.5.1 suggests, then let the server close TCP first.
        FrameEncoder.append(control: .close(code: code, reason: reason), role: .client, to: &output)
        flushBriefly()
        return WebSocketCloseInfo(code: code ?? .noStatus, reason: reason, wasClean: true)
    }

    private mutating func failProtocol(_ error: WebSocketError) -> WebSocketCloseInfo {
        guard case .protocolViolation(let code, let reason) = error else {
            return WebSocketCloseInfo(code: .abnormal, error: error)
        }
        output.removeAll()
        outputStart = 0
        FrameEncoder.append(control: .close(code: code, reason: reason), role: .client, to: &output)
        flushBriefly()
        return WebSocketCloseInfo(code: code, reason: reason, error: error)
    }

    private mutating func checkTimers() -> WebSocketCloseInfo? {
        let now = Monotonic.now
        if let deadline = closeDeadline, now >= deadline, case .closingByUs(let code, let reason, let byUser) = phase {
            return WebSocketCloseInfo(code: code, reason: reason, byUser: byUser, error: byUser ? nil : .timedOut(phase: .close))
        }
        if let deadline = pongDeadline, now >= deadline, pausedSince == nil {
            return WebSocketCloseInfo(code: .abnormal, error: .pongTimeout(seconds: configuration.pongTimeout))
        }
        if let due = nextPing, now >= due, case .open = phase, let interval = configuration.pingInterval {
            nextPing = now + interval
            if pongDeadline == nil { sendPing() }
        }
        return nil
    }

    // MARK: - Socket

    /// A transfer failing during the handshake: a server refusing the TLS connection over the client
    /// certificate (an alert that arrives after the TLS handshake under TLS 1.3) is a TLS error saying so,
    /// not a lost connection to reconnect to; anything else is a lost connection.
    private func handshakeFailure(_ message: String) -> WebSocketError {
        if let refusal = ClientCertificate.refusal(message, presented: configuration.clientCertificate) {
            return .tls(message: refusal)
        }
        return .connectionLost(message: message)
    }

    private mutating func flush() -> CurlPipe.IOResult {
        guard let pipe else { return .failed("not connected") }
        var total = 0
        while outputStart < output.count {
            let result = output.withUnsafeBytes { pipe.send(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
            switch result {
            case .done(let count): outputStart += count; total += count
            case .wouldBlock: return .wouldBlock
            case .closed, .failed: return result
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
        outputStart = 0
        return .done(total)
    }

    /// Writes what is queued for up to a second; used just before the connection is given up.
    private mutating func flushBriefly() {
        let deadline = Monotonic.now + 1
        while outputStart < output.count {
            guard case .wouldBlock = flush() else { return }
            do { try waitForSocket(write: true, until: deadline) } catch { return }
        }
    }

    private func receiveSome(into bytes: inout [UInt8]) -> CurlPipe.IOResult {
        guard let pipe else { return .failed("not connected") }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let result = chunk.withUnsafeMutableBytes { pipe.receive(into: $0) }
        if case .done(let count) = result { bytes.append(contentsOf: chunk[0..<count]) }
        return result
    }

    /// Waits until the socket is ready or the deadline passes (handshake phase).
    private func waitForSocket(write: Bool, until deadline: Double) throws(WebSocketError) {
        let remaining = deadline - Monotonic.now
        if remaining <= 0 { throw .timedOut(phase: .handshake) }
        var fds = [
            pollfd(fd: pipe?.socket ?? -1, events: Int16(write ? POLLOUT : POLLIN), revents: 0),
            pollfd(fd: connection.wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, Int32(min(remaining * 1000 + 1, 1_000_000)))
    }

    /// Sleeps in poll(2) until the socket or the wake-up pipe is ready, or the next timer is due.
    private func pollOnce() {
        if moreToRead { return }
        var timeout = -1.0
        for deadline in [closeDeadline, pongDeadline, nextPing].compactMap({ $0 }) {
            let wait = max(0, deadline - Monotonic.now)
            timeout = timeout < 0 ? wait : min(timeout, wait)
        }
        // While paused the socket is left out unless there is something to write: a hung-up socket would
        // otherwise wake poll at once, for ever.
        var events = pausedSince == nil ? Int16(POLLIN) : 0
        if outputStart < output.count { events |= Int16(POLLOUT) }
        var fds = [
            pollfd(fd: events == 0 ? -1 : pipe?.socket ?? -1, events: events, revents: 0),
            pollfd(fd: connection.wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, timeout < 0 ? -1 : Int32(min(timeout * 1000 + 1, 1_000_000)))
    }
}

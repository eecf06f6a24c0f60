import CourierWebSocket
import Foundation

/// The server end of one demo WebSocket on a blocking socket: framed writes and polled reads,
/// using the same codec as the client with the server's masking rules.
final class DemoWebSocketPeer {
    let fd: Int32
    private var reader: MessageReader
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    /// Set once the peer's close frame arrived or the socket ended.
    private(set) var isFinished = false

    /// What one read turn produced.
    enum ReadResult {
        case incoming([WebSocketIncoming])
        case idle
        case ended
    }

    /// Demo endpoints accept messages up to this size (the 4 MB echo test needs headroom).
    static let maxMessageSize = 32 << 20

    init(fd: Int32, leftover: [UInt8]) {
        self.fd = fd
        reader = MessageReader(role: .server, maxMessageSize: Self.maxMessageSize)
        if !leftover.isEmpty { reader.append(leftover) }
    }

    /// Waits up to `timeoutMs` (-1 forever) for bytes and returns what they completed. A protocol
    /// violation is answered with the matching close code and ends the conversation.
    func read(timeoutMs: Int32) -> ReadResult {
        if let buffered = drainReader() { return buffered }
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollFD, 1, timeoutMs)
        if ready == 0 { return .idle }
        if ready < 0 { return errno == EINTR ? .idle : .ended }
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 {
            isFinished = true
            return .ended
        }
        chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return drainReader() ?? .idle
    }

    private func drainReader() -> ReadResult? {
        var items: [WebSocketIncoming] = []
        do {
            while let item = try reader.next() { items.append(item) }
        } catch {
            if case .protocolViolation(let code, let reason) = error { sendClose(code: code, reason: reason) }
            isFinished = true
            return items.isEmpty ? .ended : .incoming(items)
        }
        return items.isEmpty ? nil : .incoming(items)
    }

    /// Sends a data message, split into frames of `fragmentSize` bytes when given; with
    /// `pingBetweenFragments`, a ping goes out after the first fragment (control frames may interleave).
    @discardableResult
    func send(_ message: WebSocketMessage, fragmentSize: Int? = nil, pingBetweenFragments: Bool = false) -> Bool {
        var bytes: [UInt8] = []
        guard let fragmentSize, pingBetweenFragments, message.size > fragmentSize else {
            FrameEncoder.append(message, role: .server, fragmentSize: fragmentSize, to: &bytes)
            return write(bytes)
        }
        let payload = message.bytes
        let opcode: WebSocketOpcode = if case .text = message { .text } else { .binary }
        var offset = 0
        while offset < payload.count {
            let end = min(payload.count, offset + fragmentSize)
            let frame = WebSocketFrame(fin: end == payload.count, opcode: offset == 0 ? opcode : .continuation,
                                       payload: Array(payload[offset..<end]))
            FrameEncoder.append(frame, maskKey: nil, to: &bytes)
            if offset == 0 { FrameEncoder.append(WebSocketFrame(opcode: .ping, payload: Array("mid".utf8)), maskKey: nil, to: &bytes) }
            offset = end
        }
        return write(bytes)
    }

    /// Sends a control frame.
    @discardableResult
    func send(control frame: WebSocketFrame) -> Bool {
        var bytes: [UInt8] = []
        FrameEncoder.append(frame, maskKey: nil, to: &bytes)
        return write(bytes)
    }

    /// Sends a close frame.
    @discardableResult
    func sendClose(code: WebSocketCloseCode?, reason: String = "") -> Bool {
        send(control: .close(code: code, reason: reason))
    }

    /// Starts the close handshake and waits up to `timeoutMs` for the client's answer.
    func close(code: WebSocketCloseCode, reason: String, timeoutMs: Int = 2000) {
        guard sendClose(code: code, reason: reason) else { return }
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            switch read(timeoutMs: 100) {
            case .ended: return
            case .idle: continue
            case .incoming(let items):
                if items.contains(where: { if case .close = $0 { true } else { false } }) { return }
            }
        }
    }

    /// Writes all of `bytes`; false when the client has gone.
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

/// Turns a byte stream, fed in chunks of any size, into frames, enforcing the frame-level rules of
/// RFC 6455 section 5: no reserved bits (no extension is negotiated), known opcodes only, masking
/// as the role demands, and control frames short and unfragmented.
public struct FrameDecoder: Sendable {
    public let role: WebSocketRole
    /// The largest payload one frame may declare; larger ones fail with 1009 before being buffered.
    public var maxPayload: Int

    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`; consumed bytes are dropped in bulk, not one by one.
    private var start = 0

    public init(role: WebSocketRole, maxPayload: Int = 16 << 20) {
        self.role = role
        self.maxPayload = maxPayload
    }

    /// Bytes received but not yet part of a whole frame.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes.bindMemory(to: UInt8.self))
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: [UInt8]) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// What `next(decodingText:)` found: a frame, or a whole text message decoded in place.
    public enum Decoded: Sendable {
        case frame(WebSocketFrame)
        case text(String)
    }

    /// The next whole frame, nil when more bytes are needed, or the protocol rule that was broken.
    public mutating func next() throws(WebSocketError) -> WebSocketFrame? {
        guard case .frame(let frame)? = try next(decodingText: false) else { return nil }
        return frame
    }

    /// Like `next()`, but with `decodingText` an unmasked, unfragmented text frame (what a server sends
    /// most) comes back as its validated text, decoded straight from the receive buffer: one copy per
    /// message instead of two, and no intermediate array.
    public mutating func next(decodingText: Bool) throws(WebSocketError) -> Decoded? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        if first & 0x70 != 0 {
            throw .protocolViolation(code: .protocolError, reason: "reserved bits set without an extension")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolViolation(code: .protocolError, reason: "unknown opcode \(first & 0x0F)")
        }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        if masked != role.expectsMaskedIncoming {
            throw .protocolViolation(code: .protocolError,
                                     reason: masked ? "masked frame from the server" : "unmasked frame from the client")
        }
        var headerLength = 2
        var length = Int(second & 0x7F)
        if opcode.isControl {
            if !fin { throw .protocolViolation(code: .protocolError, reason: "fragmented control frame") }
            if length > 125 { throw .protocolViolation(code: .protocolError, reason: "control frame longer than 125 bytes") }
        }
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(buffer[start + 2 + index]) }
            if value >> 63 != 0 { throw .protocolViolation(code: .protocolError, reason: "64-bit length with the top bit set") }
            if value > UInt64(maxPayload) {
                throw .protocolViolation(code: .messageTooBig, reason: "frame of \(value) bytes exceeds \(maxPayload)")
            }
            length = Int(value)
            headerLength = 10
        }
        if length > maxPayload {
            throw .protocolViolation(code: .messageTooBig, reason: "frame of \(length) bytes exceeds \(maxPayload)")
        }
        let maskOffset = start + headerLength
        if masked { headerLength += 4 }
        guard available >= headerLength + length else { return nil }
        let payloadStart = start + headerLength
        if decodingText && fin && opcode == .text && !masked {
            let text = try buffer.withUnsafeBufferPointer { all throws(WebSocketError) -> String in
                let payload = UnsafeBufferPointer(rebasing: all[payloadStart..<(payloadStart + length)])
                var validator = UTF8Validator()
                guard validator.feed(payload), validator.isComplete else {
                    throw .protocolViolation(code: .invalidPayload, reason: "text message is not valid UTF-8")
                }
                return String(decoding: payload, as: UTF8.self)
            }
            consume(through: payloadStart + length)
            return .text(text)
        }
        var payload = Array(buffer[payloadStart..<(payloadStart + length)])
        if masked {
            let key = (buffer[maskOffset], buffer[maskOffset + 1], buffer[maskOffset + 2], buffer[maskOffset + 3])
            payload.withUnsafeMutableBufferPointer { bytes in
                for index in 0..<bytes.count {
                    switch index & 3 {
                    case 0: bytes[index] ^= key.0
                    case 1: bytes[index] ^= key.1
                    case 2: bytes[index] ^= key.2
                    default: bytes[index] ^= key.3
                    }
                }
            }
        }
        consume(through: payloadStart + length)
        return .frame(WebSocketFrame(fin: fin, opcode: opcode, payload: payload))
    }

    private mutating func consume(through end: Int) {
        start = end
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        }
    }

    /// Drops consumed bytes once they are a large share of the buffer, keeping appends amortised O(1).
    private mutating func compactIfWorthIt() {
        if start > 0 && (start >= 64 * 1024 || start * 2 >= buffer.count) {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

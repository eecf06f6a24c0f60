/// Writes frames to bytes: header with the 7-, 16- or 64-bit length form, optional mask key, and the
/// payload, masked when a key is given (clients always mask, RFC 6455 section 5.3).
public enum FrameEncoder {
    /// Appends one frame to `output`; `maskKey` must be four bytes or nil for an unmasked frame.
    public static func append(_ frame: WebSocketFrame, maskKey: [UInt8]?, to output: inout [UInt8]) {
        frame.payload.withUnsafeBufferPointer { payload in
            append(fin: frame.fin, opcode: frame.opcode, payload: payload, maskKey: maskKey, to: &output)
        }
    }

    /// Appends one frame whose payload is given as a buffer, so large messages are not copied twice.
    public static func append(fin: Bool, opcode: WebSocketOpcode, payload: UnsafeBufferPointer<UInt8>,
                              maskKey: [UInt8]?, to output: inout [UInt8]) {
        output.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        let length = payload.count
        if length <= 125 {
            output.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            output.append(maskBit | 126)
            output.append(UInt8(length >> 8))
            output.append(UInt8(length & 0xFF))
        } else {
            output.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { output.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xFF)) }
        }
        guard let maskKey, maskKey.count == 4 else {
            output.append(contentsOf: payload)
            return
        }
        output.append(contentsOf: maskKey)
        let start = output.count
        output.append(contentsOf: payload)
        output.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<length { buffer[start + index] ^= maskKey[index & 3] }
        }
    }

    /// Appends a whole message for `role`, split into frames of at most `fragmentSize` bytes when given.
    /// Client frames get a fresh random mask each.
    public static func append(_ message: WebSocketMessage, role: WebSocketRole, fragmentSize: Int? = nil,
                              to output: inout [UInt8]) {
        let bytes = message.bytes
        let size = max(1, fragmentSize ?? Int.max)
        bytes.withUnsafeBufferPointer { all in
            var offset = 0
            var opcode = message.opcode
            repeat {
                let end = offset + min(size, all.count - offset)
                let piece = UnsafeBufferPointer(rebasing: all[offset..<end])
                let key = role.masksOutgoing ? SecureRandom.bytes(4) : nil
                append(fin: end == all.count, opcode: opcode, payload: piece, maskKey: key, to: &output)
                opcode = .continuation
                offset = end
            } while offset < all.count
        }
    }

    /// Appends a control frame (ping, pong, close) for `role`.
    public static func append(control frame: WebSocketFrame, role: WebSocketRole, to output: inout [UInt8]) {
        append(frame, maskKey: role.masksOutgoing ? SecureRandom.bytes(4) : nil, to: &output)
    }
}

import Foundation

/// Reassembles data frames into messages (RFC 6455 section 5.4): continuation only inside a message,
/// no new message before the last one finished, control frames passed through between fragments,
/// text validated as UTF-8 fragment by fragment, and a cap on the total message size.
public struct MessageAssembler: Sendable {
    /// The largest message accepted; a larger one fails with 1009.
    public var maxMessageSize: Int

    /// The opcode of the message in progress, nil between messages.
    private var pendingOpcode: WebSocketOpcode?
    private var pending: [UInt8] = []
    private var validator = UTF8Validator()

    public init(maxMessageSize: Int = 16 << 20) { self.maxMessageSize = maxMessageSize }

    /// Whether a fragmented message is in progress.
    public var isMidMessage: Bool { pendingOpcode != nil }

    /// Takes one frame; returns a finished message or control frame, or nil while a message is partial.
    public mutating func accept(_ frame: WebSocketFrame) throws(WebSocketError) -> WebSocketIncoming? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.parseClose(frame.payload)
        case .text, .binary:
            if pendingOpcode != nil {
                throw .protocolViolation(code: .protocolError, reason: "new message before the previous one finished")
            }
            if frame.fin {
                return try finish(opcode: frame.opcode, bytes: frame.payload, validateWhole: true)
            }
            pendingOpcode = frame.opcode
            validator = UTF8Validator()
            pending = []
            try add(frame.payload)
            return nil
        case .continuation:
            guard let opcode = pendingOpcode else {
                throw .protocolViolation(code: .protocolError, reason: "continuation frame outside a message")
            }
            try add(frame.payload)
            guard frame.fin else { return nil }
            if opcode == .text && !validator.isComplete {
                throw .protocolViolation(code: .invalidPayload, reason: "text message ends inside a UTF-8 sequence")
            }
            let bytes = pending
            pendingOpcode = nil
            pending = []
            return try finish(opcode: opcode, bytes: bytes, validateWhole: false)
        }
    }

    private mutating func add(_ payload: [UInt8]) throws(WebSocketError) {
        if pending.count + payload.count > maxMessageSize {
            throw .protocolViolation(code: .messageTooBig,
                                     reason: "message exceeds \(maxMessageSize) bytes")
        }
        if pendingOpcode == .text && !validator.feed(payload) {
            throw .protocolViolation(code: .invalidPayload, reason: "text message is not valid UTF-8")
        }
        pending.append(contentsOf: payload)
    }

    private func finish(opcode: WebSocketOpcode, bytes: [UInt8], validateWhole: Bool) throws(WebSocketError)
        -> WebSocketIncoming {
        if bytes.count > maxMessageSize {
            throw .protocolViolation(code: .messageTooBig, reason: "message exceeds \(maxMessageSize) bytes")
        }
        if opcode == .binary { return .message(.binary(Data(bytes))) }
        if validateWhole {
            var whole = UTF8Validator()
            guard whole.feed(bytes), whole.isComplete else {
                throw .protocolViolation(code: .invalidPayload, reason: "text message is not valid UTF-8")
            }
        }
        return .message(.text(String(decoding: bytes, as: UTF8.self)))
    }

    /// A close payload: empty, or a valid code followed by a UTF-8 reason (RFC 6455 section 5.5.1).
    static func parseClose(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketIncoming {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        if payload.count == 1 { throw .protocolViolation(code: .protocolError, reason: "close frame with a 1-byte payload") }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.mayBeSent else {
            throw .protocolViolation(code: .protocolError, reason: "close code \(code.rawValue) is not allowed")
        }
        let reasonBytes = Array(payload[2...])
        var validator = UTF8Validator()
        guard validator.feed(reasonBytes), validator.isComplete else {
            throw .protocolViolation(code: .invalidPayload, reason: "close reason is not valid UTF-8")
        }
        return .close(code: code, reason: String(decoding: reasonBytes, as: UTF8.self))
    }
}

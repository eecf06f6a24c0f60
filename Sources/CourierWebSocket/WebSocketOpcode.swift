/// The frame opcodes RFC 6455 defines (section 5.2); every other value is rejected with 1002.
public enum WebSocketOpcode: UInt8, Sendable, Hashable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) may arrive between the fragments of a message.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Which end of the connection a codec works for: clients mask what they send and refuse masked
/// frames; servers do the opposite (RFC 6455 section 5.1).
public enum WebSocketRole: Sendable, Hashable {
    case client
    case server

    /// Whether frames this role sends carry a mask.
    var masksOutgoing: Bool { self == .client }
    /// Whether frames this role receives must carry a mask.
    var expectsMaskedIncoming: Bool { self == .server }
}

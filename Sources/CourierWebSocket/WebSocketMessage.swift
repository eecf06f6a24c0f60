import Foundation

/// A complete data message: text (valid UTF-8) or binary.
public enum WebSocketMessage: Sendable, Hashable {
    case text(String)
    case binary(Data)

    /// The payload size in bytes.
    public var size: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    /// The payload bytes.
    public var bytes: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .binary(let data): Array(data)
        }
    }

    /// The opcode of the message's first frame.
    var opcode: WebSocketOpcode {
        switch self {
        case .text: .text
        case .binary: .binary
        }
    }
}

/// What the message reader hands over after reassembly: a data message or a control frame.
public enum WebSocketIncoming: Sendable, Hashable {
    case message(WebSocketMessage)
    case ping([UInt8])
    case pong([UInt8])
    /// A close frame: the code (nil when the frame had none) and the reason.
    case close(code: WebSocketCloseCode?, reason: String)
}

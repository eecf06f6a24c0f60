/// One frame on the wire, unmasked: the FIN bit, the opcode and the payload.
public struct WebSocketFrame: Sendable, Hashable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// A close frame carrying a status code and a UTF-8 reason, cut to fit the 125-byte control limit.
    public static func close(code: WebSocketCloseCode?, reason: String = "") -> WebSocketFrame {
        guard let code, code.mayBeSent else { return WebSocketFrame(opcode: .close) }
        var payload: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        payload.append(contentsOf: WebSocketFrame.truncatedUTF8(reason, limit: 123))
        return WebSocketFrame(opcode: .close, payload: payload)
    }

    /// The UTF-8 bytes of `text`, cut on a character boundary so that they stay valid.
    static func truncatedUTF8(_ text: String, limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let encoded = Array(character.utf8)
            if bytes.count + encoded.count > limit { break }
            bytes.append(contentsOf: encoded)
        }
        return bytes
    }
}

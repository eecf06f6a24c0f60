/// The whole receive side of the codec: bytes in, messages and control frames out. Shared by the
/// client and the demo server, which differ only in `role`.
public struct MessageReader: Sendable {
    private var decoder: FrameDecoder
    private var assembler: MessageAssembler

    public init(role: WebSocketRole, maxMessageSize: Int = 16 << 20) {
        decoder = FrameDecoder(role: role, maxPayload: maxMessageSize)
        assembler = MessageAssembler(maxMessageSize: maxMessageSize)
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) { decoder.append(bytes) }
    /// Adds received bytes.
    public mutating func append(_ bytes: [UInt8]) { decoder.append(bytes) }

    /// The next message or control frame, nil when more bytes are needed; throws the close code to
    /// send when the peer broke the protocol.
    public mutating func next() throws(WebSocketError) -> WebSocketIncoming? {
        // Between messages a whole text frame is decoded in place; anything else goes through the assembler.
        while let decoded = try decoder.next(decodingText: !assembler.isMidMessage) {
            switch decoded {
            case .text(let text): return .message(.text(text))
            case .frame(let frame): if let incoming = try assembler.accept(frame) { return incoming }
            }
        }
        return nil
    }
}

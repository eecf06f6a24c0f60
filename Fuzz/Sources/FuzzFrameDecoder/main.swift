import CourierWebSocket

/// Feeds arbitrary bytes to the client and server message readers in uneven chunks: decoding must
/// either produce messages or a protocol violation, never crash, hang or allocate without bound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for role in [WebSocketRole.client, .server] {
        var reader = MessageReader(role: role, maxMessageSize: 1 << 16)
        var offset = 0
        var step = 1
        decoding: while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            reader.append(Array(bytes[offset..<end]))
            offset = end
            step = step % 7 + 1
            do {
                while let item = try reader.next() {
                    if case .message(let message) = item, case .text(let text) = message {
                        // Validated text must re-encode to the same bytes.
                        precondition(text.utf8.count == message.size)
                    }
                }
            } catch {
                break decoding
            }
        }
    }
    var validator = UTF8Validator()
    let valid = bytes.withUnsafeBufferPointer { validator.feed($0) } && validator.isComplete
    // The validator must agree with the standard library's decoder.
    precondition(valid == (String(validating: bytes, as: UTF8.self) != nil))
    return 0
}

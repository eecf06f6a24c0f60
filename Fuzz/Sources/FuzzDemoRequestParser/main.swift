import CourierDemo

/// Feeds arbitrary bytes to the demo server's request parser, split at a point chosen by the first
/// byte and with small limits, so every state (head, body, chunks, trailers, limits) is reached.
/// The parser must never crash, never return more requests than it was given bytes for, and its
/// buffered count must stay within what was fed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = Int(bytes[0]) % size
    let limits = DemoRequestParser.Limits(requestLineBytes: 256, headerBytes: 1024, headerCount: 16, bodyBytes: 4096)
    for parserLimits in [limits, DemoRequestParser.Limits.standard] {
        var parser = DemoRequestParser(limits: parserLimits)
        var produced = 0
        for piece in [bytes[1..<max(split, 1)], bytes[max(split, 1)...]] {
            parser.append(piece)
            do {
                while let request = try parser.next() {
                    produced += 1
                    precondition(produced <= size, "more requests than bytes")
                    precondition(!request.method.isEmpty, "a request without a method")
                    _ = request.keepsAlive
                    _ = request.isWebSocketUpgrade
                }
            } catch {
                precondition((400...505).contains(error.status), "an error without a client-error status")
                break
            }
        }
        precondition(parser.bufferedByteCount <= size, "buffered more than was fed")
        _ = parser.takeLeftover()
    }
    return 0
}

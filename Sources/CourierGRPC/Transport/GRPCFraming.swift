import Foundation

/// gRPC's message framing on the HTTP/2 body: one flag byte (1 = compressed), a 4-byte big-endian
/// length, then the message.
public enum GRPCFraming {
    /// The five bytes before each message.
    public static let prefixLength = 5

    /// `message` with its prefix.
    public static func frame(_ message: [UInt8], compressed: Bool) -> Data {
        var data = Data(capacity: prefixLength + message.count)
        data.append(compressed ? 1 : 0)
        let length = UInt32(truncatingIfNeeded: message.count)
        data.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
                                 UInt8(length & 0xFF)])
        data.append(contentsOf: message)
        return data
    }
}

/// Splits the response body into messages as bytes arrive, in any chunking. A length prefix over the
/// limit fails at once, before any of that message is buffered (a 4 GB prefix costs nothing).
public struct GRPCFrameDecoder: Sendable {
    /// One message off the wire, still compressed when `compressed`.
    public struct Frame: Sendable, Equatable {
        public var compressed: Bool
        public var payload: [UInt8]
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// A decoder refusing messages longer than `limit` bytes.
    public init(limit: Int) { self.limit = limit }

    /// The messages `bytes` complete.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(GRPCError) -> [Frame] {
        buffer.append(contentsOf: bytes)
        var frames: [Frame] = []
        while buffer.count - start >= GRPCFraming.prefixLength {
            let flag = buffer[start]
            guard flag <= 1 else {
                throw .malformedMessage(path: "", reason: "a frame's flag byte is \(flag), not 0 or 1")
            }
            let length = UInt64(buffer[start + 1]) << 24 | UInt64(buffer[start + 2]) << 16
                | UInt64(buffer[start + 3]) << 8 | UInt64(buffer[start + 4])
            guard length <= UInt64(limit) else { throw .messageTooLarge(size: length, limit: limit) }
            let total = GRPCFraming.prefixLength + Int(length)
            guard buffer.count - start >= total else { break }
            frames.append(Frame(compressed: flag == 1,
                                payload: Array(buffer[(start + GRPCFraming.prefixLength)..<(start + total)])))
            start += total
        }
        if start > 0 && (start == buffer.count || start > 64 * 1024) {
            buffer.removeFirst(start)
            start = 0
        }
        return frames
    }

    /// Checks that the body ended between messages.
    public func finish() throws(GRPCError) {
        let left = buffer.count - start
        guard left > 0 else { return }
        if left < GRPCFraming.prefixLength {
            throw .truncatedFrame(received: left, expected: GRPCFraming.prefixLength)
        }
        let length = Int(buffer[start + 1]) << 24 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 8
            | Int(buffer[start + 4])
        throw .truncatedFrame(received: left - GRPCFraming.prefixLength, expected: length)
    }
}

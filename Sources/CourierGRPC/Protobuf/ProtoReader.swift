/// Reads protobuf wire format from a byte array, bounds-checked: every malformed input is a
/// `GRPCError.malformedMessage`, never a trap. Sub-messages are readers over a range of the same bytes.
public struct ProtoReader: Sendable {
    /// How deep groups may nest when skipped (protobuf's own recursion limit).
    public static let groupDepthLimit = 100

    let bytes: [UInt8]
    private(set) var index: Int
    let end: Int

    /// A reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        index = 0
        end = bytes.count
    }

    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { index >= end }

    /// The next field's number and wire type; nil at the end.
    public mutating func readTag() throws(GRPCError) -> (field: Int, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let key = try readVarint()
        let number = key >> 3
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw .malformedMessage(path: "", reason: "wire type \(key & 7) at byte \(index) is not protobuf")
        }
        guard number >= 1, number <= 536_870_911 else {
            throw .malformedMessage(path: "", reason: "field number \(number) is out of range")
        }
        return (Int(number), wireType)
    }

    /// A base-128 varint of at most ten bytes.
    public mutating func readVarint() throws(GRPCError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < end else { throw .malformedMessage(path: "", reason: "a varint runs past the end") }
            let byte = bytes[index]
            index += 1
            if shift == 63 && byte > 1 { throw .malformedMessage(path: "", reason: "a varint is longer than 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// Four little-endian bytes.
    public mutating func readFixed32() throws(GRPCError) -> UInt32 {
        guard end - index >= 4 else { throw .malformedMessage(path: "", reason: "a fixed32 runs past the end") }
        var value: UInt32 = 0
        for offset in 0..<4 { value |= UInt32(bytes[index + offset]) << (8 * UInt32(offset)) }
        index += 4
        return value
    }

    /// Eight little-endian bytes.
    public mutating func readFixed64() throws(GRPCError) -> UInt64 {
        guard end - index >= 8 else { throw .malformedMessage(path: "", reason: "a fixed64 runs past the end") }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
        index += 8
        return value
    }

    /// The range of a length-delimited value (string, bytes, message, packed run).
    public mutating func readLengthDelimitedRange() throws(GRPCError) -> Range<Int> {
        let length = try readVarint()
        guard length <= UInt64(end - index) else {
            throw .malformedMessage(path: "", reason: "a length of \(length) runs past the end (\(end - index) left)")
        }
        let range = index..<(index + Int(length))
        index = range.upperBound
        return range
    }

    /// A length-delimited value's bytes.
    public mutating func readLengthDelimited() throws(GRPCError) -> [UInt8] {
        Array(bytes[try readLengthDelimitedRange()])
    }

    /// A reader over a length-delimited value (a sub-message or a packed run).
    mutating func subReader() throws(GRPCError) -> ProtoReader {
        ProtoReader(bytes, range: try readLengthDelimitedRange())
    }

    /// Skips a value of `wireType` (groups with everything inside them) and returns the bytes it spanned,
    /// tag excluded, so an unknown field can be kept and written back.
    @discardableResult
    public mutating func skip(_ wireType: WireType, field: Int, depth: Int = 0) throws(GRPCError) -> Range<Int> {
        let start = index
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimitedRange()
        case .startGroup:
            guard depth < Self.groupDepthLimit else { throw .tooDeep(limit: Self.groupDepthLimit) }
            while true {
                guard let tag = try readTag() else {
                    throw .malformedMessage(path: "", reason: "group \(field) is not closed")
                }
                if tag.wireType == .endGroup {
                    guard tag.field == field else {
                        throw .malformedMessage(path: "", reason: "group \(field) closed as \(tag.field)")
                    }
                    break
                }
                try skip(tag.wireType, field: tag.field, depth: depth + 1)
            }
        case .endGroup:
            throw .malformedMessage(path: "", reason: "an end-group tag for field \(field) without its start")
        }
        return start..<index
    }
}

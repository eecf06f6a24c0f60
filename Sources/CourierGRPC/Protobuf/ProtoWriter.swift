/// Writes protobuf wire format into a growing byte array.
public struct ProtoWriter: Sendable {
    /// What has been written.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// A field's key: its number and wire type.
    public mutating func writeTag(_ field: Int, _ wireType: WireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    public mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    public mutating func writeFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    public mutating func writeFixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A length prefix, then the bytes.
    public mutating func writeLengthDelimited(_ value: some Collection<UInt8>) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Bytes written as they are (an unknown field kept from the input).
    public mutating func writeRaw(_ value: some Collection<UInt8>) {
        bytes.append(contentsOf: value)
    }
}

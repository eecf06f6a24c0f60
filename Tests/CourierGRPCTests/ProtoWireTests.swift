@testable import CourierGRPC
import Testing

/// The wire codec: every malformed input is an error that says what is wrong, never a trap or a hang.
struct ProtoWireTests {
    @Test(arguments: [0, 1, 127, 128, 300, 1 << 35, UInt64.max])
    func varintsRoundTrip(_ value: UInt64) throws {
        var writer = ProtoWriter()
        writer.writeVarint(value)
        var reader = ProtoReader(writer.bytes)
        #expect(try reader.readVarint() == value)
        #expect(reader.isAtEnd)
    }

    @Test func zigzagKeepsSmallMagnitudesSmall() {
        #expect(ZigZag.encode(0) == 0)
        #expect(ZigZag.encode(-1) == 1)
        #expect(ZigZag.encode(1) == 2)
        #expect(ZigZag.encode(-2) == 3)
        for value: Int64 in [.min, -300, 0, 77, .max] { #expect(ZigZag.decode(ZigZag.encode(value)) == value) }
    }

    @Test func fixedWidthValuesAreLittleEndian() throws {
        var writer = ProtoWriter()
        writer.writeFixed32(0x0403_0201)
        writer.writeFixed64(0x0807_0605_0403_0201)
        #expect(writer.bytes == [1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8])
        var reader = ProtoReader(writer.bytes)
        #expect(try reader.readFixed32() == 0x0403_0201)
        #expect(try reader.readFixed64() == 0x0807_0605_0403_0201)
    }

    @Test func aVarintLongerThan64BitsIsMalformed() {
        var reader = ProtoReader([UInt8](repeating: 0xFF, count: 10) + [0x01])
        #expect(throws: GRPCError.malformedMessage(path: "", reason: "a varint is longer than 64 bits")) {
            try reader.readVarint()
        }
    }

    @Test func aLengthPastTheEndIsMalformedWithoutReadingIt() {
        // Given: field 1, length-delimited, claiming 2^32 bytes
        var reader = ProtoReader([0x0A, 0x80, 0x80, 0x80, 0x80, 0x10, 0x41])
        _ = try? reader.readTag()
        #expect(throws: GRPCError.self) { try reader.readLengthDelimitedRange() }
    }

    @Test func groupsAreSkippedWithWhatTheyHoldAndUnknownFieldsKeepTheirBytes() throws {
        // Given: field 2 as a group holding a varint and a nested group, then field 3 = 7
        let bytes: [UInt8] = [0x13, 0x08, 0x01, 0x23, 0x24, 0x14, 0x18, 0x07]
        var reader = ProtoReader(bytes)
        // When
        let tag = try #require(try reader.readTag())
        let span = try reader.skip(tag.wireType, field: tag.field)
        // Then: the group's bytes (kept for writing back) end with its end tag, and reading goes on after it
        #expect(Array(bytes[span]) == [0x08, 0x01, 0x23, 0x24, 0x14])
        let next = try #require(try reader.readTag())
        #expect(next.field == 3)
        #expect(try reader.readVarint() == 7)
    }

    @Test func aGroupThatIsNeverClosedOrClosedWrongIsMalformed() {
        var open = ProtoReader([0x13, 0x08, 0x01])
        #expect(throws: GRPCError.malformedMessage(path: "", reason: "group 2 is not closed")) {
            let tag = try open.readTag()!
            try open.skip(tag.wireType, field: tag.field)
        }
        var wrong = ProtoReader([0x13, 0x1C])
        #expect(throws: GRPCError.malformedMessage(path: "", reason: "group 2 closed as 3")) {
            let tag = try wrong.readTag()!
            try wrong.skip(tag.wireType, field: tag.field)
        }
    }

    @Test func groupsNestedPastTheLimitStopThere() {
        let bytes = [UInt8](repeating: 0x0B, count: 10_000)
        var reader = ProtoReader(bytes)
        #expect(throws: GRPCError.tooDeep(limit: ProtoReader.groupDepthLimit)) {
            let tag = try reader.readTag()!
            try reader.skip(tag.wireType, field: tag.field)
        }
    }

    @Test func wireTypeSixAndFieldZeroAreNotProtobuf() {
        var six = ProtoReader([0x0E])
        #expect(throws: GRPCError.self) { try six.readTag() }
        var zero = ProtoReader([0x00])
        #expect(throws: GRPCError.self) { try zero.readTag() }
    }
}

@testable import CourierGRPC
import CourierBody
import Foundation
import Testing

/// The proto3 JSON mapping, both ways, against protoc's descriptors of courier_test.proto.
struct ProtoJSONTests {
    func roundTrip(_ text: String, type: String = Schema.request) throws -> String {
        let bytes = try Schema.json.message(fromJSONText: text, type: type)
        return try Schema.json.json(from: bytes, type: type).compactJSON
    }

    @Test func everyKindOfFieldComesBackInItsCanonicalForm() throws {
        let text = #"""
            {"message": "hi", "count": -3, "big": 12345678901234, "numbers": [1, -2, 3], "tallies": {"x": 5},
             "mood": 2, "blob": "_-8", "name": "n", "inner": {"label": "a", "child": {"label": "b"}},
             "at": "1972-01-01T10:00:20.021Z", "wait": "-1.000340012s", "extra": {"a": {"b": [1.5, "s"]}},
             "maybe": 4, "mask": "a.bC,d", "ratio": "Infinity", "items": [{"label": "i"}], "signed_big": "-9"}
            """#
        let output = try roundTrip(text)
        #expect(output == #"{"message":"hi","count":-3,"big":"12345678901234","numbers":[1,-2,3],"#
                + #""tallies":{"x":5},"mood":"GRUMPY","blob":"/+8=","name":"n","inner":{"label":"a","child":"#
                + #"{"label":"b"}},"at":"1972-01-01T10:00:20.021Z","wait":"-1.000340012s","extra":{"a":{"b":"#
                + #"[1.5,"s"]}},"maybe":4,"mask":"a.bC,d","ratio":"Infinity","items":[{"label":"i"}],"signedBig":"-9"}"#)
    }

    @Test func defaultsAreLeftOutUnlessTheFieldTracksPresence() throws {
        #expect(try roundTrip(#"{"message": "", "count": 0, "mood": "MOOD_UNSPECIFIED", "numbers": []}"#) == "{}")
        #expect(try roundTrip(#"{"note": "", "code": 0, "inner": {}}"#) == #"{"code":0,"inner":{},"note":""}"#)
    }

    @Test func originalAndJSONNamesAreBothAccepted() throws {
        #expect(try roundTrip(#"{"signed_big": "1"}"#) == #"{"signedBig":"1"}"#)
        #expect(try roundTrip(#"{"signedBig": 1}"#) == #"{"signedBig":"1"}"#)
    }

    @Test func integersAcceptNumbersAndStringsInRangeOnly() throws {
        #expect(try roundTrip(#"{"count": "12"}"#) == #"{"count":12}"#)
        #expect(try roundTrip(#"{"count": 1e2}"#) == #"{"count":100}"#)
        #expect(throws: GRPCError.invalidJSON(path: "$.count", reason:
            "'2147483648' is not a whole number in the range of Int32")) {
            try roundTrip(#"{"count": 2147483648}"#)
        }
        #expect(throws: GRPCError.self) { try roundTrip(#"{"count": 1.5}"#) }
        #expect(try roundTrip(#"{"big": "-9223372036854775808"}"#) == #"{"big":"-9223372036854775808"}"#)
    }

    @Test func mistakesNameTheirPath() {
        #expect(throws: GRPCError.invalidJSON(path: "$.items[1].label", reason: "expected a string, not the number 3")) {
            try roundTrip(#"{"items": [{}, {"label": 3}]}"#)
        }
        #expect(throws: GRPCError.invalidJSON(path: "$.at", reason:
            "'yesterday' is not a Timestamp (RFC 3339, e.g. 2024-05-01T12:00:00Z)")) {
            try roundTrip(#"{"at": "yesterday"}"#)
        }
        #expect(throws: GRPCError.invalidJSON(path: "$", reason: "courier.test.EchoRequest is written as a JSON object, not an array")) {
            try roundTrip("[]")
        }
    }

    @Test func timestampsKeepThreeSixOrNineDigitsAndHonourOffsets() throws {
        #expect(ProtoTime.timestamp(seconds: 0, nanos: 0) == "1970-01-01T00:00:00Z")
        #expect(ProtoTime.timestamp(seconds: 1, nanos: 10_000_000) == "1970-01-01T00:00:01.010Z")
        #expect(ProtoTime.timestamp(seconds: 1, nanos: 1000) == "1970-01-01T00:00:01.000001Z")
        #expect(ProtoTime.timestamp(seconds: -1, nanos: 1) == "1969-12-31T23:59:59.000000001Z")
        #expect(ProtoTime.timestamp(seconds: 253_402_300_800, nanos: 0) == nil)
        let parsed = try #require(ProtoTime.parseTimestamp("2024-02-29T23:30:00.5-01:30"))
        #expect(ProtoTime.timestamp(seconds: parsed.0, nanos: parsed.1) == "2024-03-01T01:00:00.500Z")
        #expect(ProtoTime.parseTimestamp("2024-02-29 23:30:00Z") == nil)
        #expect(ProtoTime.parseDuration("0.5s")! == (0, 500_000_000))
        #expect(ProtoTime.duration(seconds: 0, nanos: -5) == "-0.000000005s")
    }

    @Test func repeatedScalarsReadPackedAndUnpacked() throws {
        // Given: numbers = [1, 2] written unpacked (two tags) and then packed [3]
        let bytes: [UInt8] = [0x20, 0x01, 0x20, 0x02, 0x22, 0x01, 0x03]
        #expect(try Schema.json.json(from: bytes, type: Schema.request).compactJSON == #"{"numbers":[1,2,3]}"#)
        // And: Courier writes them packed (proto3)
        #expect(try Schema.json.message(fromJSONText: #"{"numbers": [1, 2]}"#, type: Schema.request) == [0x22, 0x02, 0x01, 0x02])
    }

    @Test func unknownFieldsAreSkippedWhenReading() throws {
        // Field 99 (varint) and field 100 (a group) are not in the schema
        let bytes: [UInt8] = [0x98, 0x06, 0x05, 0xA3, 0x06, 0x08, 0x01, 0xA4, 0x06, 0x0A, 0x01, 0x78]
        #expect(try Schema.json.json(from: bytes, type: Schema.request).compactJSON == #"{"message":"x"}"#)
    }

    @Test func aWrongWireTypeNamesTheField() {
        // message (field 1) sent as a varint
        #expect(throws: GRPCError.malformedMessage(path: "message", reason: "wire type 0 where string needs 2")) {
            try Schema.json.json(from: [0x08, 0x01], type: Schema.request)
        }
    }

    @Test func nestingPastTheLimitIsRefusedBothWays() throws {
        var text = #"{"label": "end"}"#
        for _ in 0..<150 { text = #"{"child": \#(text)}"# }
        #expect(throws: GRPCError.tooDeep(limit: ProtoJSON.depthLimit)) {
            try Schema.json.message(fromJSONText: text, type: "courier.test.Inner")
        }
        var bytes: [UInt8] = []
        for _ in 0..<150 {
            var writer = ProtoWriter()
            writer.writeTag(2, .lengthDelimited)
            writer.writeLengthDelimited(bytes)
            bytes = writer.bytes
        }
        #expect(throws: GRPCError.tooDeep(limit: ProtoJSON.depthLimit)) {
            try Schema.json.json(from: bytes, type: "courier.test.Inner")
        }
    }

    @Test func anAnyOfAnUnknownTypeKeepsItsBytes() throws {
        let text = #"{"any": {"@type": "type.googleapis.com/elsewhere.Thing", "value": "CAE="}}"#
        #expect(try roundTrip(text) == #"{"any":{"@type":"type.googleapis.com/elsewhere.Thing","value":"CAE="}}"#)
        let wellKnown = #"{"any": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "2s"}}"#
        #expect(try roundTrip(wellKnown) == #"{"any":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"2s"}}"#)
    }

    @Test func templatesStopWhereATypeRecurs() {
        let template = MessageTemplate.json(for: "courier.test.Inner", pool: Schema.pool).compactJSON
        #expect(template == #"{"label":"","child":{}}"#)
    }

    @Test func methodsAreFoundInEveryWayTheyAreWritten() throws {
        for text in ["courier.test.Echo/Say", "/courier.test.Echo/Say", "courier.test.Echo.Say", "Echo/Say"] {
            #expect(try Schema.pool.method(text).path == "/courier.test.Echo/Say")
        }
        #expect(throws: GRPCError.self) { try Schema.pool.method("courier.test.Echo/Nope") }
    }

    @Test func typeNamesResolveFromTheInnermostScopeAndAMissingOneIsNamed() throws {
        // Given: a hand-written file whose field names its type relative to its scope
        func file(_ typeName: String) -> [UInt8] {
            var field = ProtoWriter()
            field.writeTag(1, .lengthDelimited); field.writeLengthDelimited(Array("other".utf8))
            field.writeTag(3, .varint); field.writeVarint(1)
            field.writeTag(5, .varint); field.writeVarint(11)
            field.writeTag(6, .lengthDelimited); field.writeLengthDelimited(Array(typeName.utf8))
            var outer = ProtoWriter()
            outer.writeTag(1, .lengthDelimited); outer.writeLengthDelimited(Array("Outer".utf8))
            outer.writeTag(2, .lengthDelimited); outer.writeLengthDelimited(field.bytes)
            var other = ProtoWriter()
            other.writeTag(1, .lengthDelimited); other.writeLengthDelimited(Array("Other".utf8))
            var writer = ProtoWriter()
            writer.writeTag(1, .lengthDelimited); writer.writeLengthDelimited(Array("x.proto".utf8))
            writer.writeTag(2, .lengthDelimited); writer.writeLengthDelimited(Array("pkg.sub".utf8))
            writer.writeTag(4, .lengthDelimited); writer.writeLengthDelimited(outer.bytes)
            writer.writeTag(4, .lengthDelimited); writer.writeLengthDelimited(other.bytes)
            return writer.bytes
        }
        // When / Then
        let pool = try DescriptorPool(files: [DescriptorDecoder.decodeFile(file("Other"))])
        #expect(try pool.message("pkg.sub.Outer").field(named: "other")?.typeName == "pkg.sub.Other")
        #expect(throws: GRPCError.badDescriptor("field pkg.sub.Outer.other has type 'Missing', which no file defines")) {
            try DescriptorPool(files: [DescriptorDecoder.decodeFile(file("Missing"))])
        }
    }

    @Test func jsonSequencesSplitIntoMessages() {
        #expect(JSONSequence.split(#"{"a": "}{"} {"b": [1, {"c": 2}]}"#) == [#"{"a": "}{"}"#, #"{"b": [1, {"c": 2}]}"#])
        #expect(JSONSequence.split("\n{}\n\n{}\n") == ["{}", "{}"])
        #expect(JSONSequence.split("") == [])
    }
}

import CourierBody
import Foundation

/// The well-known types whose JSON form is not an object of their fields: Timestamp, Duration, Struct,
/// Value, ListValue, the wrappers, FieldMask and Any. Their field numbers are fixed by protobuf, so they
/// are read and written without needing their descriptors.
enum WellKnownJSON {
    private static let wrappers: [String: FieldType] = [
        "google.protobuf.DoubleValue": .double, "google.protobuf.FloatValue": .float,
        "google.protobuf.Int64Value": .int64, "google.protobuf.UInt64Value": .uint64,
        "google.protobuf.Int32Value": .int32, "google.protobuf.UInt32Value": .uint32,
        "google.protobuf.BoolValue": .bool, "google.protobuf.StringValue": .string,
        "google.protobuf.BytesValue": .bytes,
    ]

    /// Whether `type` has a JSON form of its own (Any writes such a value under "value").
    static func isSpecial(_ type: String) -> Bool {
        wrappers[type] != nil || ["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.Struct",
                                  "google.protobuf.Value", "google.protobuf.ListValue", "google.protobuf.FieldMask",
                                  "google.protobuf.Any"].contains(type)
    }

    private static func field(_ number: Int, _ type: FieldType, name: String = "value", repeated: Bool = false,
                              typeName: String = "") -> FieldDescriptor {
        FieldDescriptor(name: name, number: number, type: type, isRepeated: repeated, typeName: typeName,
                        jsonName: name, oneofIndex: nil, hasPresence: false, isPacked: false)
    }

    // MARK: Protobuf to JSON

    static func toJSON(_ reader: ProtoReader, type: String, converter: inout ProtoToJSON, depth: Int,
                       path: String) throws(GRPCError) -> JSONValue? {
        var reader = reader
        if let wrapped = wrappers[type] {
            let valueField = field(1, wrapped)
            var result = ProtoToJSON.defaultJSONValue(wrapped)
            while let tag = try reader.readTag() {
                if tag.field == 1, tag.wireType == wrapped.wireType {
                    result = try converter.scalar(&reader, valueField)
                } else {
                    try reader.skip(tag.wireType, field: tag.field)
                }
            }
            return result
        }
        switch type {
        case "google.protobuf.Timestamp", "google.protobuf.Duration":
            var seconds: Int64 = 0
            var nanos: Int32 = 0
            while let tag = try reader.readTag() {
                switch (tag.field, tag.wireType) {
                case (1, .varint): seconds = Int64(bitPattern: try reader.readVarint())
                case (2, .varint): nanos = Int32(truncatingIfNeeded: try reader.readVarint())
                default: try reader.skip(tag.wireType, field: tag.field)
                }
            }
            let text = type.hasSuffix("Timestamp") ? ProtoTime.timestamp(seconds: seconds, nanos: nanos)
                : ProtoTime.duration(seconds: seconds, nanos: nanos)
            guard let text else {
                throw .malformedMessage(path: path, reason: "\(type) out of range (\(seconds) s, \(nanos) ns)")
            }
            return .string(text)
        case "google.protobuf.Struct":
            var members: [(key: String, value: JSONValue)] = []
            while let tag = try reader.readTag() {
                guard tag.field == 1, tag.wireType == .lengthDelimited else {
                    try reader.skip(tag.wireType, field: tag.field)
                    continue
                }
                var entry = try reader.subReader()
                var key = ""
                var value = JSONValue.null
                while let part = try entry.readTag() {
                    switch (part.field, part.wireType) {
                    case (1, .lengthDelimited):
                        key = String(decoding: entry.bytes[try entry.readLengthDelimitedRange()], as: UTF8.self)
                    case (2, .lengthDelimited):
                        value = try converter.message(try entry.subReader(), type: "google.protobuf.Value",
                                                      depth: depth + 1, path: "\(path).\(key)")
                    default: try entry.skip(part.wireType, field: part.field)
                    }
                }
                members.removeAll { $0.key == key }
                members.append((key, value))
            }
            return .object(members)
        case "google.protobuf.ListValue":
            var items: [JSONValue] = []
            while let tag = try reader.readTag() {
                guard tag.field == 1, tag.wireType == .lengthDelimited else {
                    try reader.skip(tag.wireType, field: tag.field)
                    continue
                }
                items.append(try converter.message(try reader.subReader(), type: "google.protobuf.Value",
                                                   depth: depth + 1, path: "\(path)[\(items.count)]"))
            }
            return .array(items)
        case "google.protobuf.Value":
            var result = JSONValue.null
            while let tag = try reader.readTag() {
                switch (tag.field, tag.wireType) {
                case (1, .varint): _ = try reader.readVarint(); result = .null
                case (2, .fixed64):
                    result = ProtoToJSON.floating(Double(bitPattern: try reader.readFixed64()), float: false)
                case (3, .lengthDelimited):
                    let range = try reader.readLengthDelimitedRange()
                    result = .string(String(decoding: reader.bytes[range], as: UTF8.self))
                case (4, .varint): result = .bool(try reader.readVarint() != 0)
                case (5, .lengthDelimited):
                    result = try converter.message(try reader.subReader(), type: "google.protobuf.Struct",
                                                   depth: depth + 1, path: path)
                case (6, .lengthDelimited):
                    result = try converter.message(try reader.subReader(), type: "google.protobuf.ListValue",
                                                   depth: depth + 1, path: path)
                default: try reader.skip(tag.wireType, field: tag.field)
                }
            }
            return result
        case "google.protobuf.FieldMask":
            var paths: [String] = []
            while let tag = try reader.readTag() {
                if tag.field == 1, tag.wireType == .lengthDelimited {
                    let path = String(decoding: reader.bytes[try reader.readLengthDelimitedRange()], as: UTF8.self)
                    paths.append(path.split(separator: ".").map { DescriptorDecoder.lowerCamelCase(String($0)) }
                        .joined(separator: "."))
                } else {
                    try reader.skip(tag.wireType, field: tag.field)
                }
            }
            return .string(paths.joined(separator: ","))
        case "google.protobuf.Any":
            var url = ""
            var value: [UInt8] = []
            while let tag = try reader.readTag() {
                switch (tag.field, tag.wireType) {
                case (1, .lengthDelimited):
                    url = String(decoding: reader.bytes[try reader.readLengthDelimitedRange()], as: UTF8.self)
                case (2, .lengthDelimited): value = try reader.readLengthDelimited()
                default: try reader.skip(tag.wireType, field: tag.field)
                }
            }
            if url.isEmpty && value.isEmpty { return .object([]) }
            let inner = String(url.split(separator: "/").last ?? "")
            if isSpecial(inner) {
                let json = try converter.message(ProtoReader(value), type: inner, depth: depth + 1, path: path)
                return .object([("@type", .string(url)), ("value", json)])
            }
            guard converter.pool.hasMessage(inner) else {
                // A type this schema does not describe: its bytes, so nothing is lost.
                return .object([("@type", .string(url)), ("value", .string(Data(value).base64EncodedString()))])
            }
            let json = try converter.message(ProtoReader(value), type: inner, depth: depth + 1, path: path)
            guard case .object(let members) = json else { return json }
            return .object([("@type", .string(url))] + members)
        default:
            return nil
        }
    }

    // MARK: JSON to protobuf

    static func toProto(_ json: JSONValue, type: String, converter: inout JSONToProto, depth: Int,
                        path: String) throws(GRPCError) -> [UInt8]? {
        var writer = ProtoWriter()
        if let wrapped = wrappers[type] {
            writer.writeTag(1, wrapped.wireType)
            try converter.scalar(json, field(1, wrapped), into: &writer, path: path)
            return writer.bytes
        }
        switch type {
        case "google.protobuf.Timestamp", "google.protobuf.Duration":
            guard case .string(let text) = json else {
                throw .invalidJSON(path: path, reason: type.hasSuffix("Timestamp")
                                   ? "a Timestamp is an RFC 3339 string such as \"2024-05-01T12:00:00Z\""
                                   : "a Duration is a string of seconds such as \"1.5s\"")
            }
            let parsed = type.hasSuffix("Timestamp") ? ProtoTime.parseTimestamp(text) : ProtoTime.parseDuration(text)
            guard let (seconds, nanos) = parsed else {
                let expected = type.hasSuffix("Timestamp") ? "Timestamp (RFC 3339, e.g. 2024-05-01T12:00:00Z)"
                                                           : "Duration (e.g. 1.5s)"
                throw .invalidJSON(path: path, reason: "'\(text)' is not a \(expected)")
            }
            if seconds != 0 { writer.writeTag(1, .varint); writer.writeVarint(UInt64(bitPattern: seconds)) }
            if nanos != 0 { writer.writeTag(2, .varint); writer.writeVarint(UInt64(bitPattern: Int64(nanos))) }
            return writer.bytes
        case "google.protobuf.Struct":
            guard case .object(let members) = json else {
                throw .invalidJSON(path: path, reason: "a Struct is a JSON object, not \(JSONToProto.kind(json))")
            }
            for (key, value) in members {
                var entry = ProtoWriter()
                entry.writeTag(1, .lengthDelimited)
                entry.writeLengthDelimited(Array(key.utf8))
                entry.writeTag(2, .lengthDelimited)
                entry.writeLengthDelimited(try converter.message(value, type: "google.protobuf.Value", depth: depth + 1,
                                                                 path: "\(path).\(key)"))
                writer.writeTag(1, .lengthDelimited)
                writer.writeLengthDelimited(entry.bytes)
            }
            return writer.bytes
        case "google.protobuf.ListValue":
            guard case .array(let items) = json else {
                throw .invalidJSON(path: path, reason: "a ListValue is a JSON array, not \(JSONToProto.kind(json))")
            }
            for (index, item) in items.enumerated() {
                writer.writeTag(1, .lengthDelimited)
                writer.writeLengthDelimited(try converter.message(item, type: "google.protobuf.Value",
                                                                  depth: depth + 1, path: "\(path)[\(index)]"))
            }
            return writer.bytes
        case "google.protobuf.Value":
            switch json {
            case .null: writer.writeTag(1, .varint); writer.writeVarint(0)
            case .number(let text): writer.writeTag(2, .fixed64); writer.writeFixed64((Double(text) ?? 0).bitPattern)
            case .string(let text): writer.writeTag(3, .lengthDelimited); writer.writeLengthDelimited(Array(text.utf8))
            case .bool(let flag): writer.writeTag(4, .varint); writer.writeVarint(flag ? 1 : 0)
            case .object:
                writer.writeTag(5, .lengthDelimited)
                writer.writeLengthDelimited(try converter.message(json, type: "google.protobuf.Struct",
                                                                  depth: depth + 1, path: path))
            case .array:
                writer.writeTag(6, .lengthDelimited)
                writer.writeLengthDelimited(try converter.message(json, type: "google.protobuf.ListValue",
                                                                  depth: depth + 1, path: path))
            }
            return writer.bytes
        case "google.protobuf.FieldMask":
            guard case .string(let text) = json else {
                throw .invalidJSON(path: path, reason: "a FieldMask is a string of comma-separated paths")
            }
            for part in text.split(separator: ",") where !part.isEmpty {
                let snake = part.split(separator: ".").map { Self.snakeCase(String($0)) }.joined(separator: ".")
                writer.writeTag(1, .lengthDelimited)
                writer.writeLengthDelimited(Array(snake.utf8))
            }
            return writer.bytes
        case "google.protobuf.Any":
            guard case .object(var members) = json else {
                throw .invalidJSON(path: path, reason: "an Any is a JSON object with \"@type\"")
            }
            if members.isEmpty { return [] }
            guard let typeIndex = members.firstIndex(where: { $0.key == "@type" }),
                  case .string(let url) = members[typeIndex].value else {
                throw .invalidJSON(path: path, reason: "an Any needs \"@type\" (such as "
                                   + "\"type.googleapis.com/package.Message\")")
            }
            members.remove(at: typeIndex)
            let inner = String(url.split(separator: "/").last ?? "")
            let value: [UInt8]
            if isSpecial(inner) || !converter.pool.hasMessage(inner) {
                guard let member = members.first(where: { $0.key == "value" }) else {
                    throw .invalidJSON(path: path, reason: "an Any of \(inner) needs \"value\"")
                }
                if converter.pool.hasMessage(inner) || isSpecial(inner) {
                    value = try converter.message(member.value, type: inner, depth: depth + 1, path: "\(path).value")
                } else {
                    guard case .string(let text) = member.value, let bytes = JSONToProto.base64(text) else {
                        throw .unknownSymbol(inner, known: [])
                    }
                    value = bytes
                }
            } else {
                value = try converter.message(.object(members), type: inner, depth: depth + 1, path: path)
            }
            writer.writeTag(1, .lengthDelimited)
            writer.writeLengthDelimited(Array(url.utf8))
            writer.writeTag(2, .lengthDelimited)
            writer.writeLengthDelimited(value)
            return writer.bytes
        default:
            return nil
        }
    }

    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension ProtoToJSON {
    /// The JSON of a scalar type's default value.
    static func defaultJSONValue(_ type: FieldType) -> JSONValue {
        switch type {
        case .bool: .bool(false)
        case .string, .bytes: .string("")
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: .string("0")
        default: .number("0")
        }
    }
}

import CourierBody
import Foundation

/// Proto3 JSON to protobuf bytes, guided by descriptors. Every mistake names its JSON path and what
/// the field wanted: an unknown field, a string where a number belongs, an enum name that does not exist.
struct JSONToProto {
    let pool: DescriptorPool

    mutating func message(_ json: JSONValue, type typeName: String, depth: Int, path: String)
        throws(GRPCError) -> [UInt8] {
        guard depth < ProtoJSON.depthLimit else { throw .tooDeep(limit: ProtoJSON.depthLimit) }
        if let special = try WellKnownJSON.toProto(json, type: typeName, converter: &self, depth: depth, path: path) {
            return special
        }
        let descriptor = try pool.message(typeName)
        guard case .object(let members) = json else {
            throw .invalidJSON(path: path, reason: "\(typeName) is written as a JSON object, not \(Self.kind(json))")
        }
        var writer = ProtoWriter()
        var oneofSet: [Int: String] = [:]
        for (key, value) in members {
            guard let field = descriptor.field(named: key) else {
                let names = descriptor.fields.map(\.jsonName)
                throw .invalidJSON(path: path, reason: "\(typeName) has no field '\(key)'"
                                   + (names.isEmpty ? "" : " (fields: \(names.joined(separator: ", ")))"))
            }
            let fieldPath = "\(path).\(key)"
            if case .null = value, !(field.type == .message && field.typeName == "google.protobuf.Value")
                && !(field.type == .enum && field.typeName == "google.protobuf.NullValue") {
                continue
            }
            if let oneof = field.oneofIndex {
                if let other = oneofSet[oneof], other != key {
                    let name = oneof < descriptor.oneofs.count ? descriptor.oneofs[oneof] : "\(oneof)"
                    throw .invalidJSON(path: fieldPath, reason: "'\(other)' and '\(key)' are both in oneof \(name); "
                                       + "set one")
                }
                oneofSet[oneof] = key
            }
            try write(value, field: field, into: &writer, depth: depth, path: fieldPath)
        }
        return writer.bytes
    }

    private mutating func write(_ json: JSONValue, field: FieldDescriptor, into writer: inout ProtoWriter,
                                depth: Int, path: String) throws(GRPCError) {
        if field.isRepeated, field.type == .message, let entry = try? pool.message(field.typeName), entry.isMapEntry {
            guard case .object(let entries) = json else {
                throw .invalidJSON(path: path, reason: "a map is written as a JSON object, not \(Self.kind(json))")
            }
            guard let keyField = entry.field(number: 1), let valueField = entry.field(number: 2) else {
                throw .badDescriptor("map entry \(entry.fullName) lacks its key or value field")
            }
            for (key, value) in entries {
                var pair = ProtoWriter()
                try writeSingle(try mapKey(key, keyField, path: "\(path).\(key)"), field: keyField, into: &pair,
                                depth: depth, path: "\(path).\(key)")
                try writeSingle(value, field: valueField, into: &pair, depth: depth, path: "\(path).\(key)")
                writer.writeTag(field.number, .lengthDelimited)
                writer.writeLengthDelimited(pair.bytes)
            }
            return
        }
        guard field.isRepeated else {
            try writeSingle(json, field: field, into: &writer, depth: depth, path: path)
            return
        }
        guard case .array(let items) = json else {
            throw .invalidJSON(path: path,
                               reason: "a repeated field is written as a JSON array, not \(Self.kind(json))")
        }
        if field.isPacked {
            var run = ProtoWriter()
            for (index, item) in items.enumerated() { try scalar(item, field, into: &run, path: "\(path)[\(index)]") }
            if !items.isEmpty {
                writer.writeTag(field.number, .lengthDelimited)
                writer.writeLengthDelimited(run.bytes)
            }
            return
        }
        for (index, item) in items.enumerated() {
            try writeSingle(item, field: field, into: &writer, depth: depth, path: "\(path)[\(index)]")
        }
    }

    private mutating func writeSingle(_ json: JSONValue, field: FieldDescriptor, into writer: inout ProtoWriter,
                                      depth: Int, path: String) throws(GRPCError) {
        switch field.type {
        case .message:
            let bytes = try message(json, type: field.typeName, depth: depth + 1, path: path)
            writer.writeTag(field.number, .lengthDelimited)
            writer.writeLengthDelimited(bytes)
        case .group:
            let bytes = try message(json, type: field.typeName, depth: depth + 1, path: path)
            writer.writeTag(field.number, .startGroup)
            writer.writeRaw(bytes)
            writer.writeTag(field.number, .endGroup)
        default:
            writer.writeTag(field.number, field.type.wireType)
            try scalar(json, field, into: &writer, path: path)
        }
    }

    /// A map key (always a JSON string) as the JSON value of the key field's type.
    private func mapKey(_ key: String, _ field: FieldDescriptor, path: String) throws(GRPCError) -> JSONValue {
        switch field.type {
        case .string: return .string(key)
        case .bool:
            guard key == "true" || key == "false" else {
                throw .invalidJSON(path: path, reason: "a bool map key is \"true\" or \"false\"")
            }
            return .bool(key == "true")
        default: return .string(key)
        }
    }

    /// One scalar of `field`'s type, without its tag.
    func scalar(_ json: JSONValue, _ field: FieldDescriptor, into writer: inout ProtoWriter,
                path: String) throws(GRPCError) {
        switch field.type {
        case .int32: writer.writeVarint(UInt64(bitPattern: Int64(try integer(json, Int32.self, path: path))))
        case .int64: writer.writeVarint(UInt64(bitPattern: try integer(json, Int64.self, path: path)))
        case .uint32: writer.writeVarint(UInt64(try integer(json, UInt32.self, path: path)))
        case .uint64: writer.writeVarint(try integer(json, UInt64.self, path: path))
        case .sint32: writer.writeVarint(ZigZag.encode(Int64(try integer(json, Int32.self, path: path))))
        case .sint64: writer.writeVarint(ZigZag.encode(try integer(json, Int64.self, path: path)))
        case .fixed32: writer.writeFixed32(try integer(json, UInt32.self, path: path))
        case .sfixed32: writer.writeFixed32(UInt32(bitPattern: try integer(json, Int32.self, path: path)))
        case .fixed64: writer.writeFixed64(try integer(json, UInt64.self, path: path))
        case .sfixed64: writer.writeFixed64(UInt64(bitPattern: try integer(json, Int64.self, path: path)))
        case .bool:
            guard case .bool(let flag) = json else {
                throw .invalidJSON(path: path, reason: "expected true or false, not \(Self.kind(json))")
            }
            writer.writeVarint(flag ? 1 : 0)
        case .float:
            let value = try floating(json, path: path)
            if value.isFinite, abs(value) > Double(Float.greatestFiniteMagnitude) {
                throw .invalidJSON(path: path, reason: "\(value) is out of range for a float")
            }
            writer.writeFixed32(Float(value).bitPattern)
        case .double: writer.writeFixed64(try floating(json, path: path).bitPattern)
        case .string:
            guard case .string(let text) = json else {
                throw .invalidJSON(path: path, reason: "expected a string, not \(Self.kind(json))")
            }
            writer.writeLengthDelimited(Array(text.utf8))
        case .bytes:
            guard case .string(let text) = json, let data = Self.base64(text) else {
                throw .invalidJSON(path: path, reason: "bytes are written as a base64 string")
            }
            writer.writeLengthDelimited(data)
        case .enum:
            writer.writeVarint(UInt64(bitPattern: Int64(try enumNumber(json, type: field.typeName, path: path))))
        case .message, .group:
            throw .invalidJSON(path: path, reason: "a message cannot be packed")
        }
    }

    private func enumNumber(_ json: JSONValue, type: String, path: String) throws(GRPCError) -> Int32 {
        if case .null = json, type == "google.protobuf.NullValue" { return 0 }
        if case .string(let name) = json {
            guard let enumType = pool.enumType(type) else { throw .unknownSymbol(type, known: []) }
            guard let number = enumType.number(of: name) else {
                throw .invalidJSON(path: path, reason: "'\(name)' is not a value of \(type) (values: "
                                   + enumType.values.map(\.name).joined(separator: ", ") + ")")
            }
            return number
        }
        return try integer(json, Int32.self, path: path)
    }

    /// An integer from a JSON number or string ("12", "1e3" and "12.0" too, when whole and in range).
    func integer<T: FixedWidthInteger>(_ json: JSONValue, _ type: T.Type, path: String) throws(GRPCError) -> T {
        let text: String
        switch json {
        case .number(let number): text = number
        case .string(let string): text = string.trimmingCharacters(in: .whitespaces)
        default: throw .invalidJSON(path: path, reason: "expected an integer, not \(Self.kind(json))")
        }
        if let value = T(text) { return value }
        if let double = Double(text), double.rounded() == double, let value = T(exactly: double) { return value }
        throw .invalidJSON(path: path, reason: "'\(text)' is not a whole number in the range of \(T.self)")
    }

    func floating(_ json: JSONValue, path: String) throws(GRPCError) -> Double {
        switch json {
        case .number(let text):
            if let value = Double(text) { return value }
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let text):
            if let value = Double(text), value.isFinite { return value }
        default: break
        }
        throw .invalidJSON(path: path, reason: "expected a number, not \(Self.kind(json))")
    }

    /// Standard or URL-safe base64, padded or not.
    static func base64(_ text: String) -> [UInt8]? {
        var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        normalized = normalized.filter { !$0.isWhitespace }
        while normalized.count % 4 != 0 { normalized += "=" }
        return Data(base64Encoded: normalized).map { [UInt8]($0) }
    }

    static func kind(_ json: JSONValue) -> String {
        switch json {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "the string \(JSONValue.quoted(String(text.prefix(40))))"
        case .number(let text): "the number \(text.prefix(40))"
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }
}

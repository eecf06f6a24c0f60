import CourierBody
import Foundation

/// Protobuf bytes to proto3 JSON, guided by descriptors. Fields that the descriptor does not know are
/// left out of the JSON (the mapping has no place for them); fields at their default value are omitted
/// unless they track presence.
struct ProtoToJSON {
    let pool: DescriptorPool

    /// One field's values as read: scalars already as JSON, messages as the byte ranges to decode.
    private enum Raw {
        case value(JSONValue)
        case message([UInt8])
    }

    mutating func message(_ reader: ProtoReader, type typeName: String, depth: Int, path: String)
        throws(GRPCError) -> JSONValue {
        guard depth < ProtoJSON.depthLimit else { throw .tooDeep(limit: ProtoJSON.depthLimit) }
        if let special = try WellKnownJSON.toJSON(reader, type: typeName, converter: &self, depth: depth, path: path) {
            return special
        }
        let descriptor = try pool.message(typeName)
        var reader = reader
        var collected: [Int: [Raw]] = [:]
        while let tag = try reader.readTag() {
            guard let field = descriptor.field(number: tag.field) else {
                try reader.skip(tag.wireType, field: tag.field)
                continue
            }
            let fieldPath = path.isEmpty ? field.name : "\(path).\(field.name)"
            do throws(GRPCError) {
                if field.isRepeated, field.type.isPackable, tag.wireType == .lengthDelimited {
                    var run = try reader.subReader()
                    while !run.isAtEnd { collected[field.number, default: []].append(.value(try scalar(&run, field))) }
                    continue
                }
                guard tag.wireType == field.type.wireType else {
                    throw .malformedMessage(path: fieldPath, reason: "wire type \(tag.wireType.rawValue) where "
                                                + "\(field.type.protoName) needs \(field.type.wireType.rawValue)")
                }
                switch field.type {
                case .message:
                    collected[field.number, default: []].append(.message(try reader.readLengthDelimited()))
                case .group:
                    let range = try reader.skip(.startGroup, field: tag.field)
                    // The group's body, without its end tag, reads as a message.
                    var endTag = ProtoWriter()
                    endTag.writeTag(tag.field, .endGroup)
                    let end = range.upperBound - endTag.bytes.count
                    collected[field.number, default: []].append(.message(Array(reader.bytes[range.lowerBound..<end])))
                default:
                    collected[field.number, default: []].append(.value(try scalar(&reader, field)))
                }
            } catch {
                throw Self.located(error, at: fieldPath)
            }
        }
        var members: [(key: String, value: JSONValue)] = []
        for field in descriptor.fields {
            let fieldPath = path.isEmpty ? field.name : "\(path).\(field.name)"
            guard let raws = collected[field.number] else { continue }
            if let entry = mapEntry(field) {
                var object: [(key: String, value: JSONValue)] = []
                for raw in raws {
                    guard case .message(let bytes) = raw else { continue }
                    let (key, value) = try mapPair(bytes, entry: entry, depth: depth, path: fieldPath)
                    if let existing = object.firstIndex(where: { $0.key == key }) { object.remove(at: existing) }
                    object.append((key, value))
                }
                members.append((field.jsonName, .object(object)))
            } else if field.isRepeated {
                var items: [JSONValue] = []
                for (index, raw) in raws.enumerated() {
                    items.append(try value(raw, field, depth: depth, path: "\(fieldPath)[\(index)]"))
                }
                members.append((field.jsonName, .array(items)))
            } else {
                // A message field written more than once is merged: its parts read as one message.
                let last: Raw
                if field.type == .message || field.type == .group {
                    last = .message(raws.flatMap { raw -> [UInt8] in if case .message(let b) = raw { b } else { [] } })
                } else {
                    last = raws[raws.count - 1]
                }
                if !field.hasPresence && Self.isDefault(last, field) { continue }
                members.append((field.jsonName, try value(last, field, depth: depth, path: fieldPath)))
            }
        }
        return .object(members)
    }

    private func mapEntry(_ field: FieldDescriptor) -> MessageDescriptor? {
        guard field.isRepeated, field.type == .message, let entry = try? pool.message(field.typeName),
              entry.isMapEntry else { return nil }
        return entry
    }

    private mutating func mapPair(_ bytes: [UInt8], entry: MessageDescriptor, depth: Int, path: String)
        throws(GRPCError) -> (String, JSONValue) {
        guard let keyField = entry.field(number: 1), let valueField = entry.field(number: 2) else {
            throw .badDescriptor("map entry \(entry.fullName) lacks its key or value field")
        }
        var reader = ProtoReader(bytes)
        var key: JSONValue?
        var value: Raw?
        while let tag = try reader.readTag() {
            if tag.field == 1, tag.wireType == keyField.type.wireType {
                key = try scalar(&reader, keyField)
            } else if tag.field == 2, tag.wireType == valueField.type.wireType {
                value = valueField.type == .message ? .message(try reader.readLengthDelimited())
                    : .value(try scalar(&reader, valueField))
            } else {
                try reader.skip(tag.wireType, field: tag.field)
            }
        }
        let keyText: String = switch key {
        case .string(let text)?: text
        case .number(let text)?: text
        case .bool(let flag)?: flag ? "true" : "false"
        default: valueField.type == .bool ? "false" : (keyField.type == .string ? "" : "0")
        }
        let json: JSONValue
        if let value {
            json = try self.value(value, valueField, depth: depth, path: "\(path)[\(keyText)]")
        } else {
            json = valueField.type == .message
                ? try self.value(.message([]), valueField, depth: depth, path: "\(path)[\(keyText)]")
                : Self.defaultJSON(valueField, pool: pool)
        }
        return (keyText, json)
    }

    private mutating func value(_ raw: Raw, _ field: FieldDescriptor, depth: Int, path: String)
        throws(GRPCError) -> JSONValue {
        switch raw {
        case .value(let json):
            if field.type == .enum { return enumJSON(json, type: field.typeName) }
            return json
        case .message(let bytes):
            return try message(ProtoReader(bytes), type: field.typeName, depth: depth + 1, path: path)
        }
    }

    private func enumJSON(_ json: JSONValue, type: String) -> JSONValue {
        guard case .number(let text) = json, let number = Int32(text) else { return json }
        if type == "google.protobuf.NullValue" { return .null }
        return pool.enumType(type)?.name(of: number).map { .string($0) } ?? json
    }

    /// One scalar value of `field`'s type off the reader, as JSON (an enum as its number, named later).
    func scalar(_ reader: inout ProtoReader, _ field: FieldDescriptor) throws(GRPCError) -> JSONValue {
        switch field.type {
        case .int32, .enum: return .number(String(Int32(truncatingIfNeeded: try reader.readVarint())))
        case .int64: return .string(String(Int64(bitPattern: try reader.readVarint())))
        case .uint32: return .number(String(UInt32(truncatingIfNeeded: try reader.readVarint())))
        case .uint64: return .string(String(try reader.readVarint()))
        case .sint32: return .number(String(Int32(truncatingIfNeeded: ZigZag.decode(try reader.readVarint()))))
        case .sint64: return .string(String(ZigZag.decode(try reader.readVarint())))
        case .bool: return .bool(try reader.readVarint() != 0)
        case .fixed32: return .number(String(try reader.readFixed32()))
        case .sfixed32: return .number(String(Int32(bitPattern: try reader.readFixed32())))
        case .fixed64: return .string(String(try reader.readFixed64()))
        case .sfixed64: return .string(String(Int64(bitPattern: try reader.readFixed64())))
        case .float: return Self.floating(Double(Float(bitPattern: try reader.readFixed32())), float: true)
        case .double: return Self.floating(Double(bitPattern: try reader.readFixed64()), float: false)
        case .string:
            let range = try reader.readLengthDelimitedRange()
            return .string(String(decoding: reader.bytes[range], as: UTF8.self))
        case .bytes: return .string(Data(try reader.readLengthDelimited()).base64EncodedString())
        case .message, .group:
            throw .malformedMessage(path: "", reason: "a message where a scalar was expected")
        }
    }

    /// A float or double as JSON: a number, or "NaN" / "Infinity" / "-Infinity".
    static func floating(_ value: Double, float: Bool) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        var text = float ? "\(Float(value))" : "\(value)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    /// Whether a singular value is its type's default, which proto3 JSON leaves out.
    private static func isDefault(_ raw: Raw, _ field: FieldDescriptor) -> Bool {
        guard case .value(let json) = raw else { return false }
        switch (field.type, json) {
        case (.string, .string(let text)), (.bytes, .string(let text)): return text.isEmpty
        case (.bool, .bool(let flag)): return !flag
        case (_, .string(let text)): return text == "0"
        case (_, .number(let text)): return Double(text) == 0 && !text.hasPrefix("-")
        default: return false
        }
    }

    static func defaultJSON(_ field: FieldDescriptor, pool: DescriptorPool) -> JSONValue {
        switch field.type {
        case .bool: .bool(false)
        case .string, .bytes: .string("")
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: .string("0")
        case .enum: pool.enumType(field.typeName)?.name(of: 0).map { .string($0) } ?? .number("0")
        case .message, .group: .object([])
        default: .number("0")
        }
    }

    /// The error with the field's path filled in when the reader did not know it.
    static func located(_ error: GRPCError, at path: String) -> GRPCError {
        if case .malformedMessage(let inner, let reason) = error, inner.isEmpty {
            return .malformedMessage(path: path, reason: reason)
        }
        return error
    }
}

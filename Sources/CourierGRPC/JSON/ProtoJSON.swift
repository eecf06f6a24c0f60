import CourierBody

/// Protobuf messages as JSON by the proto3 JSON mapping: fields by their lowerCamelCase JSON names (the
/// original names are accepted too), enums by name, 64-bit integers as strings, bytes as base64, maps as
/// objects, and the well-known types (Timestamp, Duration, Struct, Value, ListValue, the wrappers, Empty,
/// FieldMask, Any) in their own JSON forms. Both directions are bounded by `depthLimit`.
public struct ProtoJSON: Sendable {
    /// How deep messages (and JSON) may nest: protobuf's own recursion limit.
    public static let depthLimit = 100

    public let pool: DescriptorPool

    public init(pool: DescriptorPool) { self.pool = pool }

    /// The JSON form of a serialized message of type `typeName`.
    public func json(from bytes: [UInt8], type typeName: String) throws(GRPCError) -> JSONValue {
        var decoder = ProtoToJSON(pool: pool)
        return try decoder.message(ProtoReader(bytes), type: typeName, depth: 0, path: "")
    }

    /// The serialized message of type `typeName` that `json` describes.
    public func message(from json: JSONValue, type typeName: String) throws(GRPCError) -> [UInt8] {
        var encoder = JSONToProto(pool: pool)
        return try encoder.message(json, type: typeName, depth: 0, path: "$")
    }

    /// The serialized message of type `typeName` that the JSON text describes (empty text: the empty message).
    public func message(fromJSONText text: String, type typeName: String) throws(GRPCError) -> [UInt8] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return [] }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(trimmed.utf8))
        } catch {
            throw .invalidJSON(path: "$", reason: "not JSON: \(error)")
        }
        return try message(from: value, type: typeName)
    }
}

import Foundation

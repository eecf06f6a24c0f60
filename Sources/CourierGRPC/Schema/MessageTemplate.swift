import CourierBody

/// A JSON skeleton of a message, to start a request from: every field at a sample of its type (strings
/// empty, numbers 0, enums their first value, one element in lists and maps, the first member of each
/// oneof). A type met again inside itself is `{}`, so recursive messages end.
public enum MessageTemplate {
    /// The template of `typeName`.
    public static func json(for typeName: String, pool: DescriptorPool) -> JSONValue {
        var path: [String] = []
        return value(ofMessage: typeName, pool: pool, path: &path)
    }

    private static func value(ofMessage typeName: String, pool: DescriptorPool, path: inout [String]) -> JSONValue {
        switch typeName {
        case "google.protobuf.Timestamp": return .string("1970-01-01T00:00:00Z")
        case "google.protobuf.Duration": return .string("0s")
        case "google.protobuf.Struct", "google.protobuf.Empty", "google.protobuf.Any": return .object([])
        case "google.protobuf.Value": return .null
        case "google.protobuf.ListValue": return .array([])
        case "google.protobuf.FieldMask": return .string("")
        default: break
        }
        guard !path.contains(typeName), path.count < ProtoJSON.depthLimit,
              let message = try? pool.message(typeName) else { return .object([]) }
        if typeName.hasPrefix("google.protobuf."), typeName.hasSuffix("Value"),
           let inner = message.field(number: 1) {
            return scalar(inner, pool: pool)
        }
        path.append(typeName)
        defer { path.removeLast() }
        var members: [(key: String, value: JSONValue)] = []
        var oneofsDone: Set<Int> = []
        for field in message.fields {
            if let oneof = field.oneofIndex {
                guard !oneofsDone.contains(oneof) else { continue }
                oneofsDone.insert(oneof)
            }
            let single: JSONValue
            if field.type == .message || field.type == .group {
                if field.isRepeated, let entry = try? pool.message(field.typeName), entry.isMapEntry,
                   let valueField = entry.field(number: 2) {
                    let mapped = valueField.type == .message
                        ? value(ofMessage: valueField.typeName, pool: pool, path: &path)
                        : scalar(valueField, pool: pool)
                    members.append((field.jsonName, .object([("key", mapped)])))
                    continue
                }
                single = value(ofMessage: field.typeName, pool: pool, path: &path)
            } else {
                single = scalar(field, pool: pool)
            }
            members.append((field.jsonName, field.isRepeated ? .array([single]) : single))
        }
        return .object(members)
    }

    private static func scalar(_ field: FieldDescriptor, pool: DescriptorPool) -> JSONValue {
        switch field.type {
        case .enum: pool.enumType(field.typeName)?.values.first.map { .string($0.name) } ?? .number("0")
        default: ProtoToJSON.defaultJSONValue(field.type)
        }
    }
}

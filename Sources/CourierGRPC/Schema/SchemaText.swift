/// Services, methods and messages written out as `.proto`-like text, for `courier grpc describe`.
public enum SchemaText {
    /// A service with one line per method.
    public static func describe(_ service: ServiceDescriptor) -> String {
        var lines = ["service \(service.fullName) {"]
        for method in service.methods { lines.append("  " + signature(method) + ";  // \(method.kind)") }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// `rpc Name(stream In) returns (Out)`.
    public static func signature(_ method: MethodDescriptor) -> String {
        "rpc \(method.name)(\(method.clientStreaming ? "stream " : "")\(method.inputType)) returns "
            + "(\(method.serverStreaming ? "stream " : "")\(method.outputType))"
    }

    /// A message with one line per field, oneof members marked.
    public static func describe(_ message: MessageDescriptor, pool: DescriptorPool) -> String {
        var lines = ["message \(message.fullName) {"]
        for field in message.fields {
            var type: String
            if field.isRepeated, field.type == .message, let entry = try? pool.message(field.typeName),
               entry.isMapEntry, let key = entry.field(number: 1), let value = entry.field(number: 2) {
                type = "map<\(typeName(key)), \(typeName(value))>"
            } else {
                type = (field.isRepeated ? "repeated " : "") + typeName(field)
            }
            if let oneof = field.oneofIndex, oneof < message.oneofs.count,
               !field.hasPresence || field.type != .message {
                type = "oneof \(message.oneofs[oneof]): " + type
            }
            lines.append("  \(type) \(field.name) = \(field.number);")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func typeName(_ field: FieldDescriptor) -> String {
        field.typeName.isEmpty ? field.type.protoName : field.typeName
    }
}

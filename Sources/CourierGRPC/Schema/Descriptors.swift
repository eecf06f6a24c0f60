/// A protobuf field's type, numbered as `FieldDescriptorProto.Type` numbers them.
public enum FieldType: Int, Sendable {
    case double = 1, float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32
    case `enum`, sfixed32, sfixed64, sint32, sint64

    /// How a single value of this type is laid out.
    var wireType: WireType {
        switch self {
        case .double, .fixed64, .sfixed64: .fixed64
        case .float, .fixed32, .sfixed32: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        case .group: .startGroup
        default: .varint
        }
    }

    /// Whether repeated values of this type may be packed into one length-delimited run.
    var isPackable: Bool { wireType != .lengthDelimited && wireType != .startGroup }

    /// The name `.proto` files use, for `describe`.
    var protoName: String {
        switch self {
        case .enum: "enum"
        default: String(describing: self)
        }
    }
}

/// One field of a message.
public struct FieldDescriptor: Sendable {
    public var name: String
    public var number: Int
    public var type: FieldType
    public var isRepeated: Bool
    /// The full name (no leading dot) of a message or enum field's type, once resolved.
    public var typeName: String
    /// The name proto3 JSON uses: `json_name` when given, else lowerCamelCase of `name`.
    public var jsonName: String
    /// The index of the `oneof` this field belongs to (proto3 `optional` fields have a synthetic one).
    public var oneofIndex: Int?
    /// Whether the field tracks presence (proto3 `optional`, proto2 `optional`, messages, oneof members).
    public var hasPresence: Bool
    /// Whether repeated scalars are written packed.
    public var isPacked: Bool
}

/// A message type with its fields.
public struct MessageDescriptor: Sendable {
    public var fullName: String
    public var fields: [FieldDescriptor]
    /// The names of its `oneof`s, by index; synthetic ones (proto3 `optional`) included.
    public var oneofs: [String]
    /// Whether this is the synthetic entry type of a `map<K, V>` field (key is field 1, value field 2).
    public var isMapEntry: Bool

    /// The field with this number.
    public func field(number: Int) -> FieldDescriptor? { fieldsByNumber[number].map { fields[$0] } }
    /// The field with this proto name or JSON name.
    public func field(named name: String) -> FieldDescriptor? { fieldsByName[name].map { fields[$0] } }

    var fieldsByNumber: [Int: Int] = [:]
    var fieldsByName: [String: Int] = [:]

    init(fullName: String, fields: [FieldDescriptor], oneofs: [String], isMapEntry: Bool) {
        self.fullName = fullName
        self.fields = fields
        self.oneofs = oneofs
        self.isMapEntry = isMapEntry
        index()
    }

    mutating func index() {
        fieldsByNumber = [:]
        fieldsByName = [:]
        for (position, field) in fields.enumerated() {
            fieldsByNumber[field.number] = position
            fieldsByName[field.name] = position
            fieldsByName[field.jsonName] = fieldsByName[field.jsonName] ?? position
        }
    }
}

/// An enum type: its values by name and number (several names may share a number with allow_alias).
public struct EnumDescriptor: Sendable {
    public var fullName: String
    public var values: [(name: String, number: Int32)]

    /// The first name given to `number`.
    public func name(of number: Int32) -> String? { values.first { $0.number == number }?.name }
    /// The number named `name`.
    public func number(of name: String) -> Int32? { values.first { $0.name == name }?.number }
}

/// One method of a service.
public struct MethodDescriptor: Sendable, Hashable {
    /// `package.Service/Method`'s last part.
    public var name: String
    /// The service's full name.
    public var service: String
    public var inputType: String
    public var outputType: String
    public var clientStreaming: Bool
    public var serverStreaming: Bool
    /// Whether the method says calling it twice does no harm (`option idempotency_level` IDEMPOTENT or
    /// NO_SIDE_EFFECTS): then UNAVAILABLE and DEADLINE_EXCEEDED are retried.
    public var isIdempotent = false

    /// `package.Service.Method`, the symbol reflection and grpcurl use.
    public var fullName: String { "\(service).\(name)" }
    /// The HTTP/2 path the call is POSTed to: `/package.Service/Method`.
    public var path: String { "/\(service)/\(name)" }

    /// What kind of call this is, in words: unary, server streaming, client streaming, bidirectional.
    public var kind: String {
        switch (clientStreaming, serverStreaming) {
        case (false, false): "unary"
        case (false, true): "server streaming"
        case (true, false): "client streaming"
        case (true, true): "bidirectional streaming"
        }
    }
}

/// A service and its methods.
public struct ServiceDescriptor: Sendable {
    public var fullName: String
    public var methods: [MethodDescriptor]
}

/// What one `.proto` file defines, nested types flattened by their full names.
public struct FileDescriptor: Sendable {
    public var name: String
    public var package: String
    public var dependencies: [String]
    public var messages: [MessageDescriptor]
    public var enums: [EnumDescriptor]
    public var services: [ServiceDescriptor]
    public var syntax: String
}

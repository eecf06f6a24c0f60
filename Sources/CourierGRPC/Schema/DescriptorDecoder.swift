/// Decodes `FileDescriptorProto` and `FileDescriptorSet` bytes (what server reflection returns and what
/// `protoc --descriptor_set_out` writes) into descriptors. Type names are kept as written, with the scope
/// they were written in, for `DescriptorPool` to resolve once every file is known.
public enum DescriptorDecoder {
    /// How deep nested message declarations may go.
    public static let nestingLimit = 100

    /// The files of a `FileDescriptorSet`.
    public static func decodeSet(_ bytes: [UInt8]) throws(GRPCError) -> [FileDescriptor] {
        var reader = ProtoReader(bytes)
        var files: [FileDescriptor] = []
        while let tag = try reader.readTag() {
            if tag.field == 1 && tag.wireType == .lengthDelimited {
                files.append(try decodeFile(reader.readLengthDelimited()))
            } else {
                try reader.skip(tag.wireType, field: tag.field)
            }
        }
        return files
    }

    /// One serialized `FileDescriptorProto`.
    public static func decodeFile(_ bytes: [UInt8]) throws(GRPCError) -> FileDescriptor {
        var reader = ProtoReader(bytes)
        var file = FileDescriptor(name: "", package: "", dependencies: [], messages: [], enums: [], services: [],
                                  syntax: "proto2")
        var messageRanges: [Range<Int>] = []
        var enumRanges: [Range<Int>] = []
        var serviceRanges: [Range<Int>] = []
        while let tag = try reader.readTag() {
            switch (tag.field, tag.wireType) {
            case (1, .lengthDelimited): file.name = try string(&reader)
            case (2, .lengthDelimited): file.package = try string(&reader)
            case (3, .lengthDelimited): file.dependencies.append(try string(&reader))
            case (4, .lengthDelimited): messageRanges.append(try reader.readLengthDelimitedRange())
            case (5, .lengthDelimited): enumRanges.append(try reader.readLengthDelimitedRange())
            case (6, .lengthDelimited): serviceRanges.append(try reader.readLengthDelimitedRange())
            case (12, .lengthDelimited): file.syntax = try string(&reader)
            default: try reader.skip(tag.wireType, field: tag.field)
            }
        }
        if file.syntax.isEmpty { file.syntax = "proto2" }
        let scope = file.package
        for range in messageRanges {
            try decodeMessage(ProtoReader(bytes, range: range), scope: scope, syntax: file.syntax, depth: 0,
                              into: &file)
        }
        for range in enumRanges { file.enums.append(try decodeEnum(ProtoReader(bytes, range: range), scope: scope)) }
        for range in serviceRanges {
            file.services.append(try decodeService(ProtoReader(bytes, range: range), scope: scope))
        }
        return file
    }

    // MARK: Parts

    private static func decodeMessage(_ reader: ProtoReader, scope: String, syntax: String, depth: Int,
                                      into file: inout FileDescriptor) throws(GRPCError) {
        guard depth < nestingLimit else { throw .tooDeep(limit: nestingLimit) }
        var reader = reader
        var name = ""
        var fieldRanges: [Range<Int>] = []
        var nested: [Range<Int>] = []
        var enums: [Range<Int>] = []
        var oneofs: [String] = []
        var isMapEntry = false
        while let tag = try reader.readTag() {
            switch (tag.field, tag.wireType) {
            case (1, .lengthDelimited): name = try string(&reader)
            case (2, .lengthDelimited): fieldRanges.append(try reader.readLengthDelimitedRange())
            case (3, .lengthDelimited): nested.append(try reader.readLengthDelimitedRange())
            case (4, .lengthDelimited): enums.append(try reader.readLengthDelimitedRange())
            case (7, .lengthDelimited):
                var options = try reader.subReader()
                while let option = try options.readTag() {
                    if option.field == 7 && option.wireType == .varint {
                        isMapEntry = try options.readVarint() != 0
                    } else {
                        try options.skip(option.wireType, field: option.field)
                    }
                }
            case (8, .lengthDelimited):
                var oneof = try reader.subReader()
                var oneofName = ""
                while let part = try oneof.readTag() {
                    if part.field == 1 && part.wireType == .lengthDelimited {
                        oneofName = try string(&oneof)
                    } else {
                        try oneof.skip(part.wireType, field: part.field)
                    }
                }
                oneofs.append(oneofName)
            default: try reader.skip(tag.wireType, field: tag.field)
            }
        }
        let fullName = scope.isEmpty ? name : "\(scope).\(name)"
        var fields: [FieldDescriptor] = []
        for range in fieldRanges {
            fields.append(try decodeField(ProtoReader(reader.bytes, range: range), scope: fullName, syntax: syntax))
        }
        file.messages.append(MessageDescriptor(fullName: fullName, fields: fields, oneofs: oneofs,
                                               isMapEntry: isMapEntry))
        for range in nested {
            try decodeMessage(ProtoReader(reader.bytes, range: range), scope: fullName, syntax: syntax,
                              depth: depth + 1, into: &file)
        }
        for range in enums {
            file.enums.append(try decodeEnum(ProtoReader(reader.bytes, range: range), scope: fullName))
        }
    }

    private static func decodeField(_ reader: ProtoReader, scope: String, syntax: String) throws(GRPCError)
        -> FieldDescriptor {
        var reader = reader
        var name = "", typeName = "", jsonName: String?
        var number = 0, label = 1, type = 0
        var oneofIndex: Int?
        var proto3Optional = false
        var packedOption: Bool?
        while let tag = try reader.readTag() {
            switch (tag.field, tag.wireType) {
            case (1, .lengthDelimited): name = try string(&reader)
            case (3, .varint): number = Int(truncatingIfNeeded: try reader.readVarint())
            case (4, .varint): label = Int(truncatingIfNeeded: try reader.readVarint())
            case (5, .varint): type = Int(truncatingIfNeeded: try reader.readVarint())
            case (6, .lengthDelimited): typeName = try string(&reader)
            case (9, .varint): oneofIndex = Int(truncatingIfNeeded: try reader.readVarint())
            case (10, .lengthDelimited): jsonName = try string(&reader)
            case (17, .varint): proto3Optional = try reader.readVarint() != 0
            case (8, .lengthDelimited):
                var options = try reader.subReader()
                while let option = try options.readTag() {
                    if option.field == 2 && option.wireType == .varint {
                        packedOption = try options.readVarint() != 0
                    } else {
                        try options.skip(option.wireType, field: option.field)
                    }
                }
            default: try reader.skip(tag.wireType, field: tag.field)
            }
        }
        guard let fieldType = FieldType(rawValue: type) else {
            throw .badDescriptor("field \(scope).\(name) has type number \(type)")
        }
        let repeated = label == 3
        let proto3 = syntax != "proto2"
        let presence = !repeated && (fieldType == .message || fieldType == .group || oneofIndex != nil
                                     || proto3Optional || !proto3)
        // Unresolved names keep their scope, "scope|name", for the pool to resolve.
        let written = typeName.hasPrefix(".") ? String(typeName.dropFirst())
                                              : (typeName.isEmpty ? "" : "\(scope)|\(typeName)")
        return FieldDescriptor(name: name, number: number, type: fieldType, isRepeated: repeated, typeName: written,
                               jsonName: jsonName ?? lowerCamelCase(name), oneofIndex: oneofIndex,
                               hasPresence: presence,
                               isPacked: repeated && fieldType.isPackable && (packedOption ?? proto3))
    }

    private static func decodeEnum(_ reader: ProtoReader, scope: String) throws(GRPCError) -> EnumDescriptor {
        var reader = reader
        var name = ""
        var values: [(name: String, number: Int32)] = []
        while let tag = try reader.readTag() {
            switch (tag.field, tag.wireType) {
            case (1, .lengthDelimited): name = try string(&reader)
            case (2, .lengthDelimited):
                var value = try reader.subReader()
                var valueName = ""
                var number: Int32 = 0
                while let part = try value.readTag() {
                    switch (part.field, part.wireType) {
                    case (1, .lengthDelimited): valueName = try string(&value)
                    case (2, .varint): number = Int32(truncatingIfNeeded: try value.readVarint())
                    default: try value.skip(part.wireType, field: part.field)
                    }
                }
                values.append((valueName, number))
            default: try reader.skip(tag.wireType, field: tag.field)
            }
        }
        return EnumDescriptor(fullName: scope.isEmpty ? name : "\(scope).\(name)", values: values)
    }

    private static func decodeService(_ reader: ProtoReader, scope: String) throws(GRPCError) -> ServiceDescriptor {
        var reader = reader
        var name = ""
        var methods: [MethodDescriptor] = []
        while let tag = try reader.readTag() {
            switch (tag.field, tag.wireType) {
            case (1, .lengthDelimited): name = try string(&reader)
            case (2, .lengthDelimited):
                var method = try reader.subReader()
                var entry = MethodDescriptor(name: "", service: "", inputType: "", outputType: "",
                                             clientStreaming: false, serverStreaming: false)
                while let part = try method.readTag() {
                    switch (part.field, part.wireType) {
                    case (1, .lengthDelimited): entry.name = try string(&method)
                    case (2, .lengthDelimited): entry.inputType = try string(&method)
                    case (3, .lengthDelimited): entry.outputType = try string(&method)
                    case (5, .varint): entry.clientStreaming = try method.readVarint() != 0
                    case (6, .varint): entry.serverStreaming = try method.readVarint() != 0
                    case (4, .lengthDelimited):
                        var options = try method.subReader()
                        while let option = try options.readTag() {
                            if option.field == 34 && option.wireType == .varint {
                                entry.isIdempotent = try options.readVarint() != 0
                            } else {
                                try options.skip(option.wireType, field: option.field)
                            }
                        }
                    default: try method.skip(part.wireType, field: part.field)
                    }
                }
                methods.append(entry)
            default: try reader.skip(tag.wireType, field: tag.field)
            }
        }
        let fullName = scope.isEmpty ? name : "\(scope).\(name)"
        for index in methods.indices {
            methods[index].service = fullName
            for keyPath in [\MethodDescriptor.inputType, \MethodDescriptor.outputType] {
                let written = methods[index][keyPath: keyPath]
                methods[index][keyPath: keyPath] = written.hasPrefix(".") ? String(written.dropFirst())
                    : "\(scope)|\(written)"
            }
        }
        return ServiceDescriptor(fullName: fullName, methods: methods)
    }

    private static func string(_ reader: inout ProtoReader) throws(GRPCError) -> String {
        let range = try reader.readLengthDelimitedRange()
        return String(decoding: reader.bytes[range], as: UTF8.self)
    }

    /// protoc's default JSON name: underscores dropped, the letter after each one upper-cased.
    static func lowerCamelCase(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Every message, enum and service of a set of files, by full name, with each field's type name resolved
/// the way protoc resolves it (innermost scope first). Built once the files and their dependencies are
/// all known; types that refer to each other (directly or through other files) are fine, since fields
/// hold names, not types.
public struct DescriptorPool: Sendable {
    public private(set) var files: [String: FileDescriptor] = [:]
    private var messages: [String: MessageDescriptor] = [:]
    private var enums: [String: EnumDescriptor] = [:]
    private var servicesByName: [String: ServiceDescriptor] = [:]

    /// A pool of `files`; a file named twice counts once (the first).
    public init(files: [FileDescriptor]) throws(GRPCError) {
        for file in files where self.files[file.name] == nil {
            self.files[file.name] = file
            for message in file.messages { messages[message.fullName] = message }
            for type in file.enums { enums[type.fullName] = type }
            for service in file.services { servicesByName[service.fullName] = service }
        }
        for (name, message) in messages {
            var resolved = message
            for index in resolved.fields.indices where !resolved.fields[index].typeName.isEmpty {
                let field = resolved.fields[index]
                guard let target = resolve(field.typeName) else {
                    throw .badDescriptor("field \(name).\(field.name) has type '\(Self.written(field.typeName))', "
                                         + "which no file defines")
                }
                resolved.fields[index].typeName = target
                // A type written without its kind (a hand-made descriptor) takes it from what it names.
                if field.type == .message, enums[target] != nil { resolved.fields[index].type = .enum }
            }
            resolved.index()
            messages[name] = resolved
        }
        for (name, service) in servicesByName {
            var resolved = service
            for index in resolved.methods.indices {
                for keyPath in [\MethodDescriptor.inputType, \MethodDescriptor.outputType] {
                    let written = resolved.methods[index][keyPath: keyPath]
                    guard let target = resolve(written), messages[target] != nil else {
                        throw .badDescriptor("method \(name).\(resolved.methods[index].name) uses "
                                             + "'\(Self.written(written))', which no file defines")
                    }
                    resolved.methods[index][keyPath: keyPath] = target
                }
            }
            servicesByName[name] = resolved
        }
    }

    /// The services, by full name.
    public var services: [ServiceDescriptor] {
        servicesByName.values.sorted { $0.fullName < $1.fullName }
    }

    /// The message type of that full name.
    public func message(_ name: String) throws(GRPCError) -> MessageDescriptor {
        let name = name.hasPrefix(".") ? String(name.dropFirst()) : name
        guard let message = messages[name] else {
            throw .unknownSymbol(name, known: messages.keys.filter { $0.hasSuffix("." + name) }.sorted())
        }
        return message
    }

    /// The enum type of that full name.
    public func enumType(_ name: String) -> EnumDescriptor? { enums[name] }

    /// Whether a message of that name is known.
    public func hasMessage(_ name: String) -> Bool { messages[name] != nil }

    /// The service of that full name, or of that short name when only one service has it.
    public func service(_ name: String) throws(GRPCError) -> ServiceDescriptor {
        if let service = servicesByName[name] { return service }
        let matches = servicesByName.values.filter { $0.fullName.hasSuffix("." + name) }
        if matches.count == 1 { return matches[0] }
        throw .unknownSymbol(name, known: services.map(\.fullName))
    }

    /// A method written as grpcurl and the JetBrains client write it: `package.Service/Method`,
    /// `package.Service.Method` or `/package.Service/Method` (a unique short service name also does).
    public func method(_ symbol: String) throws(GRPCError) -> MethodDescriptor {
        var text = symbol.hasPrefix("/") ? String(symbol.dropFirst()) : symbol
        if !text.contains("/"), let dot = text.lastIndex(of: ".") {
            text.replaceSubrange(dot...dot, with: "/")
        }
        guard let slash = text.lastIndex(of: "/") else {
            throw .unknownSymbol(symbol, known: services.flatMap { $0.methods.map(\.fullName) })
        }
        let service = try self.service(String(text[..<slash]))
        let name = String(text[text.index(after: slash)...])
        guard let method = service.methods.first(where: { $0.name == name }) else {
            throw .unknownSymbol(symbol, known: service.methods.map(\.fullName))
        }
        return method
    }

    /// Resolves a name written in a scope ("scope|Name") as protoc does: the innermost scope first.
    private func resolve(_ written: String) -> String? {
        guard let bar = written.firstIndex(of: "|") else {
            return messages[written] != nil || enums[written] != nil ? written : nil
        }
        var scope = String(written[..<bar])
        let name = String(written[written.index(after: bar)...])
        while true {
            let candidate = scope.isEmpty ? name : "\(scope).\(name)"
            if messages[candidate] != nil || enums[candidate] != nil { return candidate }
            guard !scope.isEmpty else { return nil }
            scope = scope.lastIndex(of: ".").map { String(scope[..<$0]) } ?? ""
        }
    }

    private static func written(_ name: String) -> String {
        name.split(separator: "|").last.map(String.init) ?? name
    }
}

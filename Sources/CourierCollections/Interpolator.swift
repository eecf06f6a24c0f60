import Foundation

/// Substitutes `{{…}}` in one request's text, recording which secret values went in so printers can
/// redact them. Lookup order: `--var` overrides, request-local, script globals, file, environment, then a
/// definition in another request of the file; the process environment only through `{{$processEnv NAME}}`.
struct Interpolator {
    /// A piece of expanded text: written in the file, or produced by a variable (which URL building
    /// encodes differently).
    enum Piece: Equatable {
        case literal(String)
        case value(String)

        var text: String {
            switch self {
            case .literal(let text), .value(let text): text
            }
        }
    }

    /// How deep variables may refer to variables; a longer chain is reported as too deep, a repeated
    /// name as a cycle.
    static let maximumDepth = 64
    /// The most text one request's expansions may produce (values that double per level stop here).
    static let maximumExpandedBytes = 16 << 20

    let requestName: String
    let local: [VariableDefinition]
    let file: [VariableDefinition]
    let context: VariableContext
    /// The `.http` file's folder, where `{{$dotenv NAME}}` finds `.env`.
    let folder: URL?
    /// A `@name = value` written in another request of the file, asked only for a name no source has: the
    /// VS Code REST Client reads every such line as a file variable.
    let elsewhere: (String) -> VariableDefinition?
    private(set) var secrets: Set<String> = []
    /// Bytes produced so far, counted at every level so that doubling stops early.
    private var produced = 0
    private var dotenvValues: [String: String]?

    init(requestName: String, local: [VariableDefinition], file: [VariableDefinition], context: VariableContext,
         folder: URL? = nil, elsewhere: @escaping (String) -> VariableDefinition? = { _ in nil }) {
        self.requestName = requestName
        self.local = local
        self.file = file
        self.context = context
        self.folder = folder
        self.elsewhere = elsewhere
    }

    /// The text with every `{{…}}` replaced.
    mutating func expand(_ text: String) throws(CollectionError) -> String {
        try pieces(text).map(\.text).joined()
    }

    /// The text split into literal pieces and substituted values.
    mutating func pieces(_ text: String, stack: [String] = []) throws(CollectionError) -> [Piece] {
        var result: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            if open.lowerBound > rest.startIndex { result.append(.literal(String(rest[..<open.lowerBound]))) }
            let expression = rest[open.upperBound..<close.lowerBound].trimmingBlanks
            let value = try value(of: expression, stack: stack)
            produced += value.utf8.count
            guard produced <= Self.maximumExpandedBytes else {
                throw .expansionTooLarge(request: requestName, limit: Self.maximumExpandedBytes)
            }
            result.append(.value(value))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { result.append(.literal(String(rest))) }
        return result
    }

    /// A variable's own text with its `{{…}}` expanded, guarding against cycles and endless chains.
    private mutating func nested(_ text: String, name: String, stack: [String]) throws(CollectionError) -> String {
        guard text.contains("{{") else { return text }
        guard !stack.contains(name) else { throw .variableCycle(name: name, request: requestName) }
        guard stack.count < Self.maximumDepth else {
            throw .variableTooDeep(name: name, request: requestName, limit: Self.maximumDepth)
        }
        return try pieces(text, stack: stack + [name]).map(\.text).joined()
    }

    private mutating func value(of expression: String, stack: [String]) throws(CollectionError) -> String {
        if expression.hasPrefix("$") { return try dynamic(expression) }
        if ResponseStore.isReference(expression) {
            switch context.responses.value(for: expression) {
            case .success(let value):
                secrets.formUnion(context.responses.secrets(readBy: expression, in: value))
                return value
            case .failure(let failure):
                throw .responseValueUnavailable(expression: expression, request: requestName, reason: failure.message)
            }
        }
        if let value = context.overrides[expression] { return value }
        let localDefinition = local.last(where: { $0.name == expression })
        if localDefinition == nil, let value = context.globals[expression] { return value }
        if let definition = localDefinition ?? file.last(where: { $0.name == expression }) {
            return try nested(definition.value, name: expression, stack: stack)
        }
        if let value = context.environment.values[expression] {
            // Environment values may hold variables too (`"id": "{{$uuid}}"`); a secret stays secret expanded.
            let expanded = try nested(value.value, name: expression, stack: stack)
            if value.isSecret && !expanded.isEmpty { secrets.insert(expanded) }
            return expanded
        }
        if let definition = elsewhere(expression) {
            return try nested(definition.value, name: expression, stack: stack)
        }
        throw .unknownVariable(name: expression, request: requestName)
    }

    private mutating func dynamic(_ expression: String) throws(CollectionError) -> String {
        let folder = self.folder
        var loaded = dotenvValues
        let environment = context.environment
        let sources = DynamicVariables.Sources(
            dynamic: context.dynamic, processEnvironment: context.processEnvironment,
            dotenv: { () throws(CollectionError) -> [String: String] in
                if let loaded { return loaded }
                let values = try folder.map { (folder) throws(CollectionError) in try DotEnv.load(folder: folder) } ?? [:]
                loaded = values
                return values
            },
            environmentValue: { environment.values[$0]?.value })
        defer { dotenvValues = loaded }
        do throws(DynamicVariables.Failure) {
            let value = try DynamicVariables(sources: sources).value(expression)
            if value.isSecret && !value.text.isEmpty { secrets.insert(value.text) }
            return value.text
        } catch {
            if error.missingName { throw .unknownVariable(name: expression, request: requestName) }
            throw .badDynamicVariable(expression: expression, request: requestName, reason: error.reason)
        }
    }
}

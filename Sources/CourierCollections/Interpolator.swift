import Foundation

/// Substitutes `{{…}}` in one request's text, recording which secret values went in so printers can
/// redact them. Lookup order: `--var` overrides, request-local, script globals, file, environment; the
/// process environment only through `{{$processEnv NAME}}`.
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

    /// How deep variables may refer to variables before it is called a cycle.
    static let maximumDepth = 32

    let requestName: String
    let local: [VariableDefinition]
    let file: [VariableDefinition]
    let context: VariableContext
    private(set) var secrets: Set<String> = []

    init(requestName: String, local: [VariableDefinition], file: [VariableDefinition], context: VariableContext) {
        self.requestName = requestName
        self.local = local
        self.file = file
        self.context = context
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
            result.append(.value(try value(of: expression, stack: stack)))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { result.append(.literal(String(rest))) }
        return result
    }

    private mutating func value(of expression: String, stack: [String]) throws(CollectionError) -> String {
        if expression.hasPrefix("$") { return try dynamic(expression) }
        if expression.contains(".response.") {
            switch context.responses.value(for: expression) {
            case .success(let value): return value
            case .failure(let failure):
                throw .responseValueUnavailable(expression: expression, request: requestName, reason: failure.message)
            }
        }
        if let value = context.overrides[expression] { return value }
        let localDefinition = local.last(where: { $0.name == expression })
        if localDefinition == nil, let value = context.globals[expression] { return value }
        if let definition = localDefinition ?? file.last(where: { $0.name == expression }) {
            guard !stack.contains(expression), stack.count < Self.maximumDepth else {
                throw .variableCycle(name: expression, request: requestName)
            }
            return try pieces(definition.value, stack: stack + [expression]).map(\.text).joined()
        }
        if let value = context.environment.values[expression] {
            if value.isSecret && !value.value.isEmpty { secrets.insert(value.value) }
            return value.value
        }
        throw .unknownVariable(name: expression, request: requestName)
    }

    private mutating func dynamic(_ expression: String) throws(CollectionError) -> String {
        let words = expression.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let arguments = Array(words.dropFirst())
        switch words[0] {
        case "$uuid", "$guid", "$random.uuid":
            return context.dynamic.uuid()
        case "$timestamp":
            return String(Int64(context.dynamic.now().timeIntervalSince1970))
        case "$isoTimestamp":
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: context.dynamic.now())
        case "$randomInt":
            let numbers = arguments.compactMap { Int($0) }
            guard numbers.count == arguments.count, arguments.count == 0 || arguments.count == 2 else {
                throw .badDynamicVariable(expression: expression, request: requestName,
                                          reason: "expected '$randomInt' or '$randomInt MIN MAX'")
            }
            let (low, high) = numbers.isEmpty ? (0, 1000) : (numbers[0], numbers[1])
            guard low < high else {
                throw .badDynamicVariable(expression: expression, request: requestName, reason: "MIN must be below MAX")
            }
            return String(context.dynamic.randomInt(low..<high))
        case "$processEnv":
            guard arguments.count == 1 else {
                throw .badDynamicVariable(expression: expression, request: requestName,
                                          reason: "expected '$processEnv NAME'")
            }
            guard let value = context.processEnvironment[arguments[0]] else {
                throw .unknownVariable(name: expression, request: requestName)
            }
            if !value.isEmpty { secrets.insert(value) }
            return value
        default:
            throw .badDynamicVariable(expression: expression, request: requestName,
                                      reason: "known: $uuid, $timestamp, $isoTimestamp, $randomInt, $processEnv")
        }
    }
}

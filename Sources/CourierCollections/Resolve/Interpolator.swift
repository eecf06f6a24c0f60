import CourierBody
import CourierHTTP
import CourierScript
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
    /// Seconds a `{{ JavaScript }}` value may run: the request's `# @script-timeout`, as its scripts have.
    var scriptTimeLimit = ScriptEngine.defaultTimeLimit
    /// The OAuth 2.0 configurations whose tokens the text asked for (`{{$auth.token("id")}}`), in order.
    private(set) var oauth2: [OAuth2Configuration] = []
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

    /// `name`'s value when a definition in scope gives it (`--var`, the request's, a global, the file's, the
    /// environment's); nil otherwise, without looking through other requests' lines or responses. For optional
    /// settings read on every request: a lookup that falls through to other requests costs the file's size.
    mutating func definedValue(_ name: String) -> String? {
        guard context.overrides[name] != nil || local.contains(where: { $0.name == name })
                || context.globals[name] != nil || context.lazyGlobals[name] != nil
                || file.contains(where: { $0.name == name }) || context.environment.values[name] != nil else { return nil }
        return try? expand("{{\(name)}}")
    }

    /// Masks `value` in every output of the request, as a value read from a private source is.
    mutating func noteSecret(_ value: String) { if !value.isEmpty { secrets.insert(value) } }

    /// The text with every `{{…}}` replaced.
    mutating func expand(_ text: String) throws(CollectionError) -> String {
        try pieces(text).map(\.text).joined()
    }

    /// Where a name's value comes from, nearest first: a definition naming itself (`@token = {{token}}`)
    /// means the value from further out, the way httpyac and Postman files use it.
    enum Scope: Int, Comparable {
        case override, local, global, file, environment, elsewhere, beyond

        static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

        /// The scope after this one.
        var outward: Scope { Scope(rawValue: rawValue + 1) ?? .beyond }
    }

    /// One definition being expanded: its name and where it came from.
    struct Frame: Equatable {
        var name: String
        var scope: Scope
    }

    /// The text split into literal pieces and substituted values.
    mutating func pieces(_ text: String, stack: [Frame] = []) throws(CollectionError) -> [Piece] {
        // Most text (a URL, a header as written) names no variable: then no Foundation search at all.
        if !Self.holdsPair(UInt8(ascii: "{"), text.utf8) {
            return text.isEmpty ? [] : [.literal(Self.unescaped(Substring(text)))]
        }
        var result: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            if open.lowerBound > rest.startIndex {
                result.append(.literal(Self.unescaped(rest[..<open.lowerBound])))
            }
            let expression = rest[open.upperBound..<close.lowerBound].trimmingBlanks
            // The REST Client's `{{%name}}`: the value encoded as a URI component, then taken as written text.
            let encoded = expression.count > 1 && expression.hasPrefix("%")
            var value = try value(of: encoded ? String(expression.dropFirst()) : expression, stack: stack)
            if encoded { value = uriComponent(value) }
            produced += value.utf8.count
            guard produced <= Self.maximumExpandedBytes else {
                throw .expansionTooLarge(request: requestName, limit: Self.maximumExpandedBytes)
            }
            result.append(encoded ? .literal(value) : .value(value))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { result.append(.literal(Self.unescaped(rest))) }
        return result
    }

    /// `text` with each `{{…}}` that resolves substituted and the others kept as written.
    private mutating func substitutingWhatResolves(_ text: String, frame: Frame, stack: [Frame]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += rest[..<open.lowerBound]
            let written = String(rest[open.lowerBound..<close.upperBound])
            result += (try? nested(written, frame: frame, stack: stack)) ?? written
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// `value` percent-encoded as JavaScript's encodeURIComponent does (the REST Client's `{{%name}}`); a
    /// secret stays masked in its encoded form.
    private mutating func uriComponent(_ value: String) -> String {
        let encoded = value.addingPercentEncoding(withAllowedCharacters: Self.uriComponentCharacters) ?? value
        if secrets.contains(value) { noteSecret(encoded) }
        return encoded
    }

    /// What encodeURIComponent leaves as it is: RFC 3986's unreserved characters and `!*'()`.
    private static let uriComponentCharacters = URLBuilder.unreserved.union(CharacterSet(charactersIn: "!*'()"))

    /// httpyac's escape for braces that are not a variable: `\{\{name\}\}` is sent as `{{name}}`.
    static func unescaped(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")),
              text.contains("\\{\\{") || text.contains("\\}\\}") else { return String(text) }
        return text.replacingOccurrences(of: "\\{\\{", with: "{{").replacingOccurrences(of: "\\}\\}", with: "}}")
    }

    /// Whether `bytes` hold `byte` twice in a row (`{{`).
    static func holdsPair(_ byte: UInt8, _ bytes: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for next in bytes {
            if next == byte && previous == byte { return true }
            previous = next
        }
        return false
    }

    /// A variable's own text with its `{{…}}` expanded, guarding against cycles and endless chains.
    mutating func nested(_ text: String, frame: Frame, stack: [Frame]) throws(CollectionError) -> String {
        guard text.contains("{{") else { return text }
        guard !stack.contains(frame) else { throw .variableCycle(name: frame.name, request: requestName) }
        guard stack.count < Self.maximumDepth else {
            throw .variableTooDeep(name: frame.name, request: requestName, limit: Self.maximumDepth)
        }
        return try pieces(text, stack: stack + [frame]).map(\.text).joined()
    }

    private mutating func value(of expression: String, stack: [Frame]) throws(CollectionError) -> String {
        // Inside a definition of the same name, the search starts past that definition's scope.
        let from = stack.last.flatMap { $0.name == expression ? $0.scope.outward : nil } ?? .override
        if from <= .override, let value = context.overrides[expression] { return value }
        if expression.hasPrefix("$") {
            if let input = HttpyacInput(expression) { return try answer(input, stack: stack) }
            if let reference = AuthTokenReference(expression) { return try token(reference, written: expression) }
            if let reference = ResponseStore.httpyacXPath(expression) {
                return try response(reference, written: expression)
            }
            if expression.hasPrefix(Self.httpyacGlobalPrefix) {
                let name = String(expression.dropFirst(Self.httpyacGlobalPrefix.count))
                if let value = context.globals[name] { return value }
                // `@global.name = value` in this file, before it has run.
                return try self.value(of: Self.httpyacGlobalDefinition + name, stack: stack)
            }
            return try dynamic(expression)
        }
        if ResponseStore.isReference(expression) { return try response(expression) }
        let localDefinition = from <= .local ? local.last(where: { $0.name == expression }) : nil
        if localDefinition == nil, from <= .global, let value = context.globals[expression] {
            // A script's value may hold variables (httpyac: `exports.body = { id: '{{id}}' }`); text that only
            // looks like one is kept as it is.
            guard value.contains("{{") else { return value }
            return substitutingWhatResolves(value, frame: Frame(name: expression, scope: .global), stack: stack)
        }
        if localDefinition == nil, from <= .global, let lazy = context.lazyGlobals[expression] {
            return try nested(lazy, frame: Frame(name: expression, scope: .global), stack: stack)
        }
        if let definition = localDefinition {
            return try nested(definition.value, frame: Frame(name: expression, scope: .local), stack: stack)
        }
        if from <= .file, let definition = file.last(where: { $0.name == expression }) {
            return try nested(definition.value, frame: Frame(name: expression, scope: .file), stack: stack)
        }
        if from <= .environment, let value = context.environment.values[expression] {
            if let store = value.store {
                guard context.readsSecretStores else {
                    secrets.insert("<\(store)>")
                    return "<\(store)>"
                }
                do throws(SecretStores.Failure) {
                    let secret = try SecretStores.value(of: store)
                    secrets.insert(secret)
                    return secret
                } catch {
                    throw .secretStore(variable: expression, request: requestName, reason: error.description)
                }
            }
            // Environment values may hold variables too (`"id": "{{$uuid}}"`); a secret stays secret expanded.
            let frame = Frame(name: expression, scope: .environment)
            let expanded = try nested(value.value, frame: frame, stack: stack)
            if value.isSecret && !expanded.isEmpty { secrets.insert(expanded) }
            return expanded
        }
        if from <= .elsewhere, let definition = elsewhere(expression) {
            return try nested(definition.value, frame: Frame(name: expression, scope: .elsewhere), stack: stack)
        }
        // httpyac reads into a variable holding JSON: `{{user.name}}`, `{{item.tags[0]}}`.
        if let field = try field(of: expression, stack: stack) { return field }
        // httpyac names a request's response by the request's name: `{{login}}` is its body and
        // `{{login.token}}` a field of it (when nothing else defines that name).
        // A request has no response of its own while it is being built: `{{token}}` in request 'token' is a
        // variable nothing defines, said as such rather than as a request to run first.
        let readsItself = expression.prefix { $0 != "." && $0 != "[" } == requestName
            && context.responses.entry(requestName) == nil
        if !readsItself, let reference = ResponseStore.namedResponseReference(expression, known: context.responses) {
            // `{{login.name.toUpperCase()}}` is JavaScript where it runs, though it starts like a path.
            guard context.scriptExpressions == .evaluated && Self.isScriptExpression(expression) else {
                return try response(reference, written: expression)
            }
            if let value = try? response(reference, written: expression) { return value }
        }
        if let value = try scriptExpression(expression, stack: stack, member: true) { return value }
        throw .unknownVariable(name: expression, request: requestName)
    }

    /// The value at `.path` of the variable a dotted expression starts with, when that variable holds a JSON
    /// object or array; nil when it does not name such a variable (or has nothing at the path).
    private mutating func field(of expression: String, stack: [Frame]) throws(CollectionError) -> String? {
        let head = String(expression.prefix { $0 != "." && $0 != "[" })
        guard !head.isEmpty, head.count < expression.count, !head.hasPrefix("$") else { return nil }
        let value: String
        do { value = try self.value(of: head, stack: stack) } catch {
            if case .unknownVariable = error { return nil }
            if case .responseValueUnavailable = error { return nil }
            throw error
        }
        // A check takes a response or a scripted value as given; so is a path into it.
        if context.scriptExpressions == .assumed && (value == "checked" || value == "scripted") { return value }
        let first = value.drop { $0 == " " || $0 == "\n" || $0 == "\t" }.first
        guard first == "{" || first == "[", let path = try? JSONPath("$" + expression.dropFirst(head.count)),
              let matches = try? path.evaluate(Data(value.utf8), includePaths: false), matches.count == 1
        else { return nil }
        return matches[0].value.text
    }

    /// JetBrains' `{{$auth.token("id")}}` and `{{$auth.idToken("id")}}`: a placeholder the OAuth 2.0 middleware
    /// fills with the token of `Security.Auth` configuration `id` when the request goes out.
    private mutating func token(_ reference: AuthTokenReference, written: String) throws(CollectionError) -> String {
        let found = try SecurityAuth.configuration(reference.id, environment: context.environment) {
            (text: String) throws(CollectionError) -> String in try expand(text)
        }
        switch found {
        case .success(let configuration):
            secrets.formUnion(configuration.secrets)
            if !oauth2.contains(where: { $0.id == configuration.id }) { oauth2.append(configuration) }
            return OAuth2Placeholder.text(for: configuration.id, kind: reference.kind)
        case .failure(let problem):
            throw .badDynamicVariable(expression: written, request: requestName, reason: problem.message)
        }
    }

    /// httpyac's `{{$global.name}}`: a value a script stored with `$global.name = …`.
    static let httpyacGlobalPrefix = "$global."
    /// httpyac's `@global.name = value`: a definition that sets `{{$global.name}}`.
    static let httpyacGlobalDefinition = "global."

    /// `{{login.response.…}}` and `{{login.request.…}}`, from the run's named exchanges.
    private mutating func response(_ expression: String, written: String? = nil) throws(CollectionError) -> String {
        switch context.responses.value(for: expression) {
        case .success(let value):
            secrets.formUnion(context.responses.secrets(readBy: expression, in: value))
            return value
        case .failure(let failure):
            throw .responseValueUnavailable(expression: written ?? expression, request: requestName,
                                            reason: failure.message)
        }
    }

    /// httpyac's `{{$input PROMPT $value: DEFAULT}}` (and `$password`, `$pick`): `--var` answers it under the
    /// name of the variable it defines, or under the prompt's text; else the default; else it is a prompt
    /// nobody answered. A password is a secret.
    private mutating func answer(_ input: HttpyacInput, stack: [Frame]) throws(CollectionError) -> String {
        let name = stack.last?.name
        let given = name.flatMap { context.overrides[$0] } ?? context.overrides[input.prompt]
        if let value = given ?? input.defaultValue {
            if input.isSecret && !value.isEmpty { secrets.insert(value) }
            return value
        }
        var description = input.prompt
        if !input.choices.isEmpty { description += "; one of " + input.choices.joined(separator: ", ") }
        throw .promptNotAnswered(name: name ?? input.prompt, request: requestName, description: description)
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
            environmentValue: { environment.values[$0]?.value }, folder: folder)
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

import CourierScript

/// httpyac's `{{ expression }}`: text between the braces that is not a name (`{{JSON.stringify(item)}}`,
/// `{{1 + 1}}`) is JavaScript, evaluated on JavaScriptCore with the request's variables, script exports and
/// named responses in scope, where scripts run (a send; never `courier check`, which takes it as given).
extension Interpolator {
    /// Whether `{{text}}` is an expression rather than a variable name: it holds a character no name has.
    static func isScriptExpression(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("$") && text.contains { character in
            !(character.isLetter || character.isNumber || "_-.[]".contains(character))
        }
    }

    /// The value of `expression` as text (an object or array as JSON), its own `{{…}}` substituted; nil when it
    /// is a name, or when scripts do not run here. With `member`, a dotted name (`{{str.length}}`,
    /// `{{list[0]}}`) is JavaScript too, when the variable it starts with exists.
    mutating func scriptExpression(_ expression: String, stack: [Frame],
                                   member: Bool = false) throws(CollectionError) -> String? {
        guard Self.isScriptExpression(expression) || member && readsMember(expression, stack: stack) else {
            return nil
        }
        switch context.scriptExpressions {
        case .notEvaluated: return nil
        case .assumed: return "checked"
        case .evaluated: break
        }
        var input = ScriptInput(phase: .preRequest, request: ScriptRequest(name: requestName, method: "GET", rawURL: ""),
                                environment: context.environment.values.mapValues(\.value), globals: context.globals,
                                timeLimit: scriptTimeLimit)
        input.dialect = .httpyac
        input.folder = folder?.path ?? ""
        input.scope = scriptScope()
        let key = "$courierExpression"
        let source = ScriptSource(code: "exports[\"\(key)\"] = (\(expression));", file: requestName, line: 1)
        let result = ScriptEngine.run(source, input: input)
        if let error = result.error {
            throw .badDynamicVariable(expression: expression, request: requestName,
                                      reason: "as JavaScript: \(error.message)")
        }
        // httpyac substitutes what the expression gives too (`{ bar: '{{baz}}' }` in an export).
        let value = try nested(result.globals[key] ?? "", frame: Frame(name: expression, scope: .beyond),
                               stack: stack)
        // A secret the expression read (a private environment value, a secret global) stays masked in output.
        for secret in context.environment.secretValues.union(context.secretGlobalValues) where value.contains(secret) {
            noteSecret(secret)
        }
        return value
    }

    /// Whether `expression` is a member of a variable that exists: `str.length`, `items[0]`.
    private func readsMember(_ expression: String, stack: [Frame]) -> Bool {
        let head = String(expression.prefix { $0 != "." && $0 != "[" })
        guard !head.isEmpty, head.count < expression.count, !head.hasPrefix("$") else { return false }
        var plain = context
        plain.scriptExpressions = .notEvaluated
        var probe = Interpolator(requestName: requestName, local: local, file: file, context: plain, folder: folder,
                                 elsewhere: elsewhere)
        return (try? probe.expand("{{\(head)}}")) != nil
    }

    /// What a script sees by name: every variable the request can use, substituted (a name that does not
    /// resolve is left out; expressions inside values are not evaluated), and each answered named request's
    /// body under its name.
    func scriptScope() -> [String: String] {
        var scope: [String: String] = [:]
        for name in context.responses.answeredNames {
            if let entry = context.responses.entry(name) { scope[name] = String(decoding: entry.body, as: UTF8.self) }
        }
        var names = Set(context.environment.values.keys).union(context.globals.keys).union(context.overrides.keys)
        names.formUnion(context.lazyGlobals.keys)
        names.formUnion(file.map(\.name))
        names.formUnion(local.map(\.name))
        var plain = context
        plain.scriptExpressions = .notEvaluated
        var interpolator = Interpolator(requestName: requestName, local: local, file: file, context: plain,
                                        folder: folder, elsewhere: elsewhere)
        for name in names where name.first.map({ $0.isLetter || $0 == "_" }) == true && !name.contains(".") {
            if let value = try? interpolator.expand("{{\(name)}}") {
                scope[name] = value
            } else if let literal = (local.last { $0.name == name } ?? file.last { $0.name == name })
                .flatMap({ Self.literalExpression($0.value) }) {
                // `@callRequest = {{false}}`: a JavaScript literal needs no script to be known.
                scope[name] = literal
            }
        }
        return scope
    }

    /// The literal of a value written as `{{true}}`, `{{false}}`, `{{null}}` or `{{42}}`; nil otherwise.
    static func literalExpression(_ value: String) -> String? {
        guard value.hasPrefix("{{"), value.hasSuffix("}}"), value.count > 4 else { return nil }
        let inner = value.dropFirst(2).dropLast(2).trimmingBlanks
        if ["true", "false", "null"].contains(inner) { return inner }
        return Double(inner) != nil && inner.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) ? inner : nil
    }
}

/// What a request reads through the file's variables and the environment's values: `@uid =
/// {{createUser.response.body.$.id}}` at the top of a file makes every request that uses `{{uid}}` need
/// `createUser`, under `--jobs` (and, for file variables, `--name`) as when the reference is in the request.
extension CollectionRunner {
    /// The file's `@name = value` lines by name, and the environment's values (a name defined twice keeps both
    /// values: either may be read). An environment's `"uid": "{{createUser.response.body.$.id}}"` is read as a
    /// file variable's.
    public static func definitions(_ fileVariables: [VariableDefinition], environment: Environment = .none)
        -> [String: [String]] {
        var values: [String: [String]] = [:]
        for (name, value) in environment.values where value.value.contains("{{") {
            values[name, default: []].append(value.value)
        }
        for definition in fileVariables { values[definition.name, default: []].append(definition.value) }
        return values
    }

    /// `request`'s own text, then the values of the file variables it uses and of those they use in turn
    /// (each once, so definitions that name each other end).
    static func textRead(by request: RequestTemplate, definitions: [String: [String]]) -> String {
        let own = request.sourceText.isEmpty ? request.url : request.sourceText
        guard !definitions.isEmpty else { return own }
        var text = own
        var seen = Set<String>()
        var pending = Array(variableNames(in: own))
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let values = definitions[name] else { continue }
            for value in values {
                text += "\n" + value
                pending += variableNames(in: value)
            }
        }
        return text
    }
}

/// What a request reads through the file's variables: `@uid = {{createUser.response.body.$.id}}` at the top of
/// a file makes every request that uses `{{uid}}` need `createUser`, under `--jobs` and `--name` as when the
/// reference is written in the request itself.
extension CollectionRunner {
    /// The file's `@name = value` lines by name (a name defined twice keeps both values: either may be read).
    public static func definitions(_ fileVariables: [VariableDefinition]) -> [String: [String]] {
        var values: [String: [String]] = [:]
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

/// The variables of an import path (httpyac's `# @import {{root}}/shared.http`), substituted as httpyac
/// substitutes a file path: `--var` first, then the importing file's `@name = value`, then the selected
/// environment's values, the order a request reads them in. Only plain names: a dynamic value or a script's
/// export cannot name a file before anything runs.
enum ImportPathVariables {
    /// Why a path has no value: the variable nothing defines.
    struct Unknown: Error {
        var name: String
        var message: String {
            "unknown variable '\(name)' in the path; define it with '@\(name) = value' in this file, "
                + "in the environment, or pass --var \(name)=VALUE"
        }
    }

    /// How many times a value may name another before the path is given up (a cycle).
    static let maximumDepth = 16

    /// `path` with every `{{name}}` replaced, or the first name nothing defines.
    static func substitute(_ path: String, file: [VariableDefinition],
                           values: ImportedFiles.PathValues) -> Result<String, Unknown> {
        var text = path
        for _ in 0..<maximumDepth {
            guard text.contains("{{") else { return .success(text) }
            var result = ""
            var rest = Substring(text)
            while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
                result += rest[..<open.lowerBound]
                let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                // The last definition in the file wins, as a later `@name` line replaces an earlier one.
                guard let value = values.overrides[name] ?? file.last(where: { $0.name == name })?.value
                        ?? values.environment[name] else {
                    return .failure(Unknown(name: name))
                }
                result += value
                rest = rest[close.upperBound...]
            }
            text = result + rest
        }
        return .failure(Unknown(name: path))
    }
}

import CourierBody
import Foundation

/// Credentials an import finds in its source (a HAR's cookies and Authorization headers): each value
/// becomes a variable of `http-client.private.env.json`, so the `.http` files hold `{{authorization}}`
/// and never the secret itself. The same value found twice is one variable.
struct PrivateVariables {
    private(set) var values: [(name: String, value: String)] = []

    var isEmpty: Bool { values.isEmpty }

    /// The variable holding `value`, named after `hint` (`Authorization` gives `authorization`, a second
    /// different value `authorization-2`).
    mutating func variable(for value: String, hint: String) -> ImportedText { .variable(name(for: value, hint: hint)) }

    /// The name of the variable holding `value`, made as `variable(for:hint:)` makes it.
    mutating func name(for value: String, hint: String) -> String {
        if let known = values.first(where: { $0.value == value }) { return known.name }
        let base = Self.variableName(hint)
        var name = base
        var number = 2
        while values.contains(where: { $0.name == name }) {
            name = "\(base)-\(number)"
            number += 1
        }
        values.append((name, value))
        return name
    }

    /// `X-Api-Key` as `x-api-key`: lower case, anything a variable name cannot hold as `-`.
    static func variableName(_ hint: String) -> String {
        let name = slug(hint)
        return name.isEmpty ? "secret" : name
    }

    /// Lower-case ASCII letters, digits, `_` and `-` (for anything else), no `-` at either end; may be empty.
    static func slug(_ hint: String) -> String {
        let kept = hint.lowercased().unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                ? Character(scalar) : "-"
        }
        return String(kept).trimmingCharacters(in: ["-"])
    }

    /// The private environment file: the variables under `$shared`, so every environment (and none) has them.
    /// Environment values are read with variables: a value holding `{{` has each `{` written as `{{lbrace}}`.
    func environmentFile(environment: String = EnvironmentSet.sharedName) -> String {
        var entries = values.map { ($0.name, $0.value) }
        if entries.contains(where: { $0.1.contains("{{") }) {
            let brace = ImportWriter.braceName(avoiding: Set(values.map(\.name)))
            entries = entries.map { name, value in
                (name, value.contains("{{") ? value.replacingOccurrences(of: "{", with: "{{\(brace)}}") : value)
            }
            entries.insert((brace, "{"), at: 0)
        }
        let members = entries.map { "    \(JSONValue.quoted($0.0)): \(JSONValue.quoted($0.1))" }
        return "{\n  \(JSONValue.quoted(environment)): {\n" + members.joined(separator: ",\n") + "\n  }\n}\n"
    }
}

import CourierBody

/// Insomnia's environments: the base environment of a workspace is `$shared`; each sub-environment is a
/// named environment, in the private file when Insomnia marks it private. Values keep their JSON shape
/// (nested objects are read as `{{a.b}}`), their templates converted as requests' are.
struct InsomniaEnvironments {
    private(set) var files = ImportedEnvironments()

    var publicFile: String? { files.publicFile }
    var privateFile: String? { files.privateFile }

    mutating func add(base: InsomniaImporter.Resource, subEnvironments: [InsomniaImporter.Resource],
                      notes: inout [String]) {
        add(base.json["data"], to: EnvironmentSet.sharedName, isPrivate: false, at: base.path, notes: &notes)
        for sub in subEnvironments where sub.type == "environment" {
            let name = sub.name.isEmpty ? "env" : sub.name
            add(sub.json["data"], to: name, isPrivate: sub.json["isPrivate"]?.boolValue == true, at: sub.path,
                notes: &notes)
        }
    }

    private mutating func add(_ data: JSONValue?, to environment: String, isPrivate: Bool, at path: String,
                              notes: inout [String]) {
        guard let members = data?.objectValue else {
            // An environment with nothing in it is still one the user can select.
            files.declare(environment, isPrivate: isPrivate)
            return
        }
        for (key, value) in members {
            var unconverted: [String] = []
            let converted = Self.converted(value, unconverted: &unconverted)
            for text in unconverted { notes.append("\(path).data.\(key): \(text) kept as text") }
            files.set(key, converted, in: environment, isPrivate: isPrivate)
        }
    }

    /// Every string with `{{ _.name }}` written `{{name}}`.
    static func converted(_ value: JSONValue, unconverted: inout [String]) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(InsomniaTemplate.text(text, unconverted: &unconverted).description)
        case .array(let items):
            return .array(items.map { converted($0, unconverted: &unconverted) })
        case .object(let members):
            return .object(members.map { ($0.key, converted($0.value, unconverted: &unconverted)) })
        default:
            return value
        }
    }
}

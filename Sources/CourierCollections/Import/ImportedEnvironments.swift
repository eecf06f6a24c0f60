import CourierBody

/// The environments an import writes: `http-client.env.json` and `http-client.private.env.json`, each an
/// object of environments in the order the source defines them, their values in the source's order.
struct ImportedEnvironments {
    private(set) var publicValues: [(environment: String, values: [(key: String, value: JSONValue)])] = []
    private(set) var privateValues: [(environment: String, values: [(key: String, value: JSONValue)])] = []

    /// Sets `key` in `environment` of the public or the private file (a later value wins).
    mutating func set(_ key: String, _ value: JSONValue, in environment: String, isPrivate: Bool) {
        func apply(_ list: inout [(environment: String, values: [(key: String, value: JSONValue)])]) {
            let index = list.firstIndex { $0.environment == environment } ?? {
                list.append((environment, []))
                return list.count - 1
            }()
            if let existing = list[index].values.firstIndex(where: { $0.key == key }) {
                list[index].values[existing].value = value
            } else {
                list[index].values.append((key, value))
            }
        }
        if isPrivate { apply(&privateValues) } else { apply(&publicValues) }
    }

    /// Makes sure `environment` is in the file, values or not: an empty environment can still be selected.
    mutating func declare(_ environment: String, isPrivate: Bool) {
        if isPrivate {
            if !privateValues.contains(where: { $0.environment == environment }) {
                privateValues.append((environment, []))
            }
        } else if !publicValues.contains(where: { $0.environment == environment }) {
            publicValues.append((environment, []))
        }
    }

    var publicFile: String? { Self.text(publicValues) }
    var privateFile: String? { Self.text(privateValues) }

    /// One environment per line group, each value on a line of its own.
    static func text(_ list: [(environment: String, values: [(key: String, value: JSONValue)])]) -> String? {
        guard !list.isEmpty else { return nil }
        let environments = list.map { environment in
            let members = environment.values.map { "    \(JSONValue.quoted($0.key)): \($0.value.compactJSON)" }
            return "  \(JSONValue.quoted(environment.environment)): {\n" + members.joined(separator: ",\n")
                + (members.isEmpty ? "" : "\n") + "  }"
        }
        return "{\n" + environments.joined(separator: ",\n") + "\n}\n"
    }
}

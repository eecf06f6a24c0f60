import Foundation

/// An OpenAPI 3.0/3.1 or Swagger 2.0 description read from JSON or YAML, with `$ref` resolution across
/// the document. References to other files and URLs were made local by `OpenAPIBundle` before; one left
/// (no loader, or it could not be read) is noted. A reference chain that comes back to itself resolves to
/// nothing rather than looping.
struct OpenAPIDocument {
    enum Version: Equatable { case swagger2, openAPI3 }

    let root: [String: Any]
    let version: Version
    /// What could not be represented, for the import report.
    private(set) var notes: [String] = []
    /// Values an example built from a schema may still hold; see `OpenAPIExample.budget`.
    var exampleBudget = 0

    /// Reads `data` as JSON when it starts with `{`, else as YAML.
    init(_ data: Data) throws(CollectionError) {
        try self.init(root: try Self.parse(data, source: "the description"))
    }

    /// A description already read (and bundled: `OpenAPIBundle`).
    init(root value: Any) throws(CollectionError) {
        guard let root = value as? [String: Any] else {
            throw .importFailed(source: "the description", reason: "expected an OpenAPI object at the top")
        }
        if let swagger = root["swagger"] as? String, swagger.hasPrefix("2") {
            version = .swagger2
        } else if let openapi = root["openapi"] as? String, openapi.hasPrefix("3") {
            version = .openAPI3
        } else {
            throw .importFailed(source: "the description",
                                reason: "neither \"openapi\": \"3.x\" nor \"swagger\": \"2.0\" at the top")
        }
        self.root = root
    }

    /// A JSON or YAML document's value: JSON when it starts with `{` or `[`, else YAML.
    static func parse(_ data: Data, source: String) throws(CollectionError) -> Any {
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return try YAMLDocument(data).root() }
        if let value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) { return value }
        // YAML's flow style (`{type: string}`) starts as JSON does.
        guard let value = try? YAMLDocument(data).root() else {
            throw .importFailed(source: source, reason: "not valid JSON")
        }
        return value
    }

    mutating func note(_ text: String) { if !notes.contains(text) { notes.append(text) } }

    /// `value` with `$ref` chains followed; nil for a broken, external or circular reference.
    mutating func resolve(_ value: Any?) -> [String: Any]? {
        var current = value
        var seen: Set<String> = []
        while let object = current as? [String: Any], let ref = object["$ref"] as? String {
            guard seen.insert(ref).inserted else { return nil }
            guard ref.hasPrefix("#") else {
                // The bundle said why when it tried.
                if !notes.contains(where: { $0.hasPrefix("$ref \(ref) ") }) {
                    note("external $ref \(ref) was not followed")
                }
                return nil
            }
            guard let target = pointer(ref) else {
                note("$ref \(ref) points at nothing")
                return nil
            }
            current = target
        }
        return current as? [String: Any]
    }

    /// The value at a local JSON pointer (`#/components/schemas/Pet`).
    func pointer(_ ref: String) -> Any? {
        var current: Any = root
        let path = ref.dropFirst().split(separator: "/", omittingEmptySubsequences: true)
        for raw in path {
            let token = (String(raw).removingPercentEncoding ?? String(raw))
                .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = current as? [String: Any], let next = object[token] {
                current = next
            } else if let array = current as? [Any], let index = Int(token), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// The `$ref` string of `value`, when it is a reference.
    static func ref(_ value: Any?) -> String? { (value as? [String: Any])?["$ref"] as? String }
}

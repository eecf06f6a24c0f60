import Foundation

/// An OpenAPI 3.0/3.1 or Swagger 2.0 description read from JSON or YAML, with `$ref` resolution across
/// the document. References to other files are not followed (noted instead); a reference chain that
/// comes back to itself resolves to nothing rather than looping.
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
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        let value: Any
        if first == UInt8(ascii: "{") {
            do { value = try JSONSerialization.jsonObject(with: data) } catch {
                throw .importFailed(source: "the description", reason: "not valid JSON")
            }
        } else {
            value = try YAMLDocument(data).root()
        }
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

    mutating func note(_ text: String) { if !notes.contains(text) { notes.append(text) } }

    /// `value` with `$ref` chains followed; nil for a broken, external or circular reference.
    mutating func resolve(_ value: Any?) -> [String: Any]? {
        var current = value
        var seen: Set<String> = []
        while let object = current as? [String: Any], let ref = object["$ref"] as? String {
            guard seen.insert(ref).inserted else { return nil }
            guard ref.hasPrefix("#") else {
                note("external $ref \(ref) was not followed")
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

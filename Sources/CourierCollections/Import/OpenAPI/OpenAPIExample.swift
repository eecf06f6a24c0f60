import Foundation

/// Example values for schemas, parameters and media types: the description's own `example`/`examples`/
/// `default`/`enum` first, else a value built from the schema (`allOf` merged, the first of `oneOf`/
/// `anyOf`, placeholders by type and format). A schema that contains itself stops at the repetition.
struct OpenAPIExample {
    /// Schemas nested deeper than this are left out of built examples.
    static let maxDepth = 12
    /// Values one built example may hold: schemas whose properties fan out through many distinct
    /// references would otherwise grow exponentially with the depth.
    static let budget = 5_000

    /// An example for `schema`; nil when there is nothing sensible (a cycle, or too deep).
    static func value(for schema: Any?, in document: inout OpenAPIDocument, depth: Int = 0,
                      visiting: Set<String> = []) -> Any? {
        if depth == 0 { document.exampleBudget = budget }
        guard depth < maxDepth, document.exampleBudget > 0 else { return nil }
        document.exampleBudget -= 1
        var visiting = visiting
        if let ref = OpenAPIDocument.ref(schema) {
            guard visiting.insert(ref).inserted else { return nil }
        }
        guard let schema = document.resolve(schema) else { return nil }
        if let example = schema["example"] { return example }
        if let examples = schema["examples"] as? [Any], let first = examples.first { return first }
        if let value = schema["default"] { return value }
        if let value = schema["const"] { return value }
        if let values = schema["enum"] as? [Any], let first = values.first { return first }
        if let parts = schema["allOf"] as? [Any] {
            var merged: [String: Any] = [:]
            for part in parts {
                if let object = value(for: part, in: &document, depth: depth + 1, visiting: visiting) as? [String: Any] {
                    merged.merge(object) { $1 }
                }
            }
            var own = schema
            own.removeValue(forKey: "allOf")
            if let object = value(for: own, in: &document, depth: depth + 1, visiting: visiting) as? [String: Any] {
                merged.merge(object) { $1 }
            }
            return merged
        }
        for key in ["oneOf", "anyOf"] {
            if let choices = schema[key] as? [Any], let first = choices.first {
                return value(for: first, in: &document, depth: depth + 1, visiting: visiting)
            }
        }
        switch type(of: schema) {
        case "object":
            var object: [String: Any] = [:]
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (name, property) in properties {
                if let example = value(for: property, in: &document, depth: depth + 1, visiting: visiting) {
                    object[name] = example
                }
            }
            return object
        case "array":
            let item = value(for: schema["items"], in: &document, depth: depth + 1, visiting: visiting)
            return item.map { [$0] } ?? []
        case "integer": return 0
        case "number": return 0.0
        case "boolean": return true
        case "null": return NSNull()
        default: return placeholder(format: schema["format"] as? String)
        }
    }

    /// The schema's type; 3.1 allows a list (`["string", "null"]`), whose first non-null entry counts.
    static func type(of schema: [String: Any]) -> String {
        if let type = schema["type"] as? String { return type }
        if let types = schema["type"] as? [String] { return types.first { $0 != "null" } ?? "null" }
        if schema["properties"] != nil { return "object" }
        if schema["items"] != nil { return "array" }
        return "string"
    }

    static func placeholder(format: String?) -> String {
        switch format {
        case "date-time": "2026-01-01T00:00:00Z"
        case "date": "2026-01-01"
        case "email": "user@example.com"
        case "uuid": "00000000-0000-0000-0000-000000000000"
        case "uri", "url": "https://example.com"
        case "password": "password"
        default: "string"
        }
    }

    /// The first example of a parameter or media type object: `example`, then `examples` (a map of
    /// Example objects, possibly references), then the schema's.
    static func of(_ object: [String: Any], in document: inout OpenAPIDocument) -> Any? {
        if let example = object["example"] { return example }
        if let examples = object["examples"] as? [String: Any] {
            for key in examples.keys.sorted() {
                if let resolved = document.resolve(examples[key]), let value = resolved["value"] { return value }
            }
        }
        if let schema = object["schema"] { return value(for: schema, in: &document) }
        return nil
    }

    /// A parameter's example only when the description gives one (`example`, `examples`, or the schema's
    /// `example`, `examples`, `default`, `const`, `enum`): an optional parameter without one is left out.
    static func declared(_ parameter: [String: Any], in document: inout OpenAPIDocument) -> Any? {
        var candidate = parameter
        candidate.removeValue(forKey: "schema")
        if let example = of(candidate, in: &document) { return example }
        // Swagger 2.0 keeps type, default and enum on the parameter itself.
        let schema = document.resolve(parameter["schema"]) ?? parameter
        for key in ["example", "default", "const"] { if let value = schema[key] { return value } }
        for key in ["examples", "enum"] { if let values = schema[key] as? [Any], let first = values.first { return first } }
        return nil
    }

    /// A value as it goes into a URL, a header or a variable: text as is, anything else as compact JSON.
    static func text(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let number as NSNumber:
            // Booleans arrive as NSNumbers of type "c" from JSON and from YAML alike.
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return number.stringValue
        default: return json(value, pretty: false)
        }
    }

    /// JSON text of an example, keys sorted.
    static func json(_ value: Any?, pretty: Bool = true) -> String {
        guard let value else { return "null" }
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

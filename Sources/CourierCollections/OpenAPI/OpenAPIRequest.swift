import Foundation

/// One operation rendered as a `.http` request: variables for its parameters, the URL, headers (its own
/// and its security's) and a body.
struct OpenAPIRequest {
    let method: String
    let path: String
    let operation: [String: Any]
    let pathItem: [String: Any]
    /// The variable the URL starts with (`baseUrl`, or `webhookUrl` for webhooks).
    let baseVariable: String
    var name = ""
    private(set) var security = OpenAPISecurity()

    init(method: String, path: String, operation: [String: Any], pathItem: [String: Any], baseVariable: String) {
        self.method = method
        self.path = path
        self.operation = operation
        self.pathItem = pathItem
        self.baseVariable = baseVariable
    }

    /// `operationId`, else the method and the path (`get_pets_petId`).
    var suggestedName: String {
        if let id = operation["operationId"] as? String, !id.isEmpty { return OpenAPIImporter.variableName(id) }
        let words = path.split(separator: "/").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "{}")) }
        return OpenAPIImporter.variableName(([method.lowercased()] + words).joined(separator: "_"))
    }

    /// The request's text, from `###` to its body.
    mutating func render(_ document: inout OpenAPIDocument) -> String {
        var variables: [(String, String)] = []
        var taken: Set<String> = [baseVariable]
        var query: [(String, String)] = []
        var headers: [(String, String)] = []
        var cookies: [(String, String)] = []
        var url = path
        var formFields: [(String, String)] = []
        var bodyFromParameter: Any?
        var optional: [String] = []

        for parameter in parameters(&document) {
            guard let name = parameter["name"] as? String, let location = parameter["in"] as? String else { continue }
            if location == "body" {
                bodyFromParameter = OpenAPIExample.value(for: parameter["schema"], in: &document) ?? [:]
                continue
            }
            let declared = OpenAPIExample.declared(parameter, in: &document)
            let required = parameter["required"] as? Bool ?? (location == "path")
            if !required && declared == nil && location != "path" {
                optional.append("\(name) (\(location))")
                continue
            }
            // A required parameter without an example gets a placeholder built from its schema.
            let example = declared ?? OpenAPIExample.value(for: parameter["schema"] ?? parameter, in: &document)
            let variable = OpenAPIImporter.uniqueName(OpenAPIImporter.variableName(name), in: &taken)
            variables.append((variable, OpenAPIExample.text(example ?? "value")))
            let reference = "{{\(variable)}}"
            switch location {
            case "path": url = url.replacingOccurrences(of: "{\(name)}", with: reference)
            case "query": query.append((name, reference))
            case "header": headers.append((name, reference))
            case "cookie": cookies.append((name, reference))
            case "formData": formFields.append((name, reference))
            default: continue
            }
        }

        let requirement = ((operation["security"] ?? document.root["security"]) as? [Any])?.first as? [String: Any]
        if let requirement {
            security = OpenAPISecurity.make(requirement: requirement, document: &document)
            query += security.query
            headers += security.headers
            cookies += security.cookies
        }
        if !cookies.isEmpty { headers.append(("Cookie", cookies.map { "\($0)=\($1)" }.joined(separator: "; "))) }

        let (contentType, body) = self.body(&document, fromParameter: bodyFromParameter, formFields: formFields)
        if let contentType { headers.append(("Content-Type", contentType)) }

        var lines: [String] = []
        let summary = (operation["summary"] as? String).map { $0.replacingOccurrences(of: "\n", with: " ") }
        lines.append("### \(summary ?? name)")
        lines.append("# @name \(name)")
        if operation["deprecated"] as? Bool == true { lines.append("# deprecated") }
        if !optional.isEmpty { lines.append("# optional parameters left out: \(optional.joined(separator: ", "))") }
        for (variable, value) in variables { lines.append("@\(variable) = \(value.replacingOccurrences(of: "\n", with: " "))") }
        let queryText = query.isEmpty ? "" : "?" + query.map { "\($0)=\($1)" }.joined(separator: "&")
        lines.append("\(method) {{\(baseVariable)}}\(url)\(queryText)")
        for (name, value) in headers { lines.append("\(name): \(value)") }
        if let body {
            lines.append("")
            lines.append(body)
        }
        return lines.joined(separator: "\n")
    }

    /// Path-level parameters overridden by the operation's own (same name and location).
    private func parameters(_ document: inout OpenAPIDocument) -> [[String: Any]] {
        var result: [[String: Any]] = []
        for raw in (pathItem["parameters"] as? [Any] ?? []) + (operation["parameters"] as? [Any] ?? []) {
            guard let parameter = document.resolve(raw) else { continue }
            result.removeAll { $0["name"] as? String == parameter["name"] as? String
                               && $0["in"] as? String == parameter["in"] as? String }
            result.append(parameter)
        }
        return result
    }

    /// The Content-Type and body text: JSON from the first JSON media type's example or schema, form
    /// fields urlencoded, plain text as is; other media types are noted and sent without a body.
    private func body(_ document: inout OpenAPIDocument, fromParameter: Any?,
                      formFields: [(String, String)]) -> (String?, String?) {
        if let fromParameter { return ("application/json", OpenAPIExample.json(fromParameter)) }
        if !formFields.isEmpty {
            return ("application/x-www-form-urlencoded", formFields.map { "\($0)=\($1)" }.joined(separator: "&"))
        }
        guard let requestBody = document.resolve(operation["requestBody"]),
              let content = requestBody["content"] as? [String: Any], !content.isEmpty else { return (nil, nil) }
        let types = content.keys.sorted()
        if let json = types.first(where: { $0.contains("json") }), let media = document.resolve(content[json]) {
            return (json, OpenAPIExample.json(OpenAPIExample.of(media, in: &document) ?? [:]))
        }
        if let form = types.first(where: { $0 == "application/x-www-form-urlencoded" }),
           let media = document.resolve(content[form]) {
            let object = OpenAPIExample.of(media, in: &document) as? [String: Any] ?? [:]
            let pairs = object.keys.sorted().map { key in
                "\(key)=\(OpenAPIExample.text(object[key]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            }
            return (form, pairs.joined(separator: "&"))
        }
        if let text = types.first(where: { $0.hasPrefix("text/") }), let media = document.resolve(content[text]) {
            return (text, OpenAPIExample.text(OpenAPIExample.of(media, in: &document) ?? "text"))
        }
        document.note("request bodies of type \(types.joined(separator: ", ")) are left out (\(name))")
        return (nil, nil)
    }
}

import CourierHTTP
import Foundation

/// One operation as an imported request: variables for its parameters, the URL, headers (its own
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

    /// The operation as an imported request: everything from the description is data, and only the
    /// variables this request defines (and the base URL's) are written as variables.
    mutating func imported(_ document: inout OpenAPIDocument) -> ImportedRequest {
        var variables: [ImportedRequest.Field] = []
        var taken: Set<String> = [baseVariable]
        var pathVariables: [String: String] = [:]
        var query: [(String, ImportedText)] = []
        var headers: [ImportedRequest.Field] = []
        var cookies: [(String, ImportedText)] = []
        var formFields: [(String, ImportedText)] = []
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
            variables.append(.init(variable, .data(OpenAPIExample.text(example ?? "value"))))
            switch location {
            case "path": pathVariables[name] = pathVariables[name] ?? variable
            case "query": query.append((name, .variable(variable)))
            case "header": headers.append(.init(name, .variable(variable)))
            case "cookie": cookies.append((name, .variable(variable)))
            case "formData": formFields.append((name, .variable(variable)))
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
        if !cookies.isEmpty { headers.append(.init("Cookie", Self.joined(cookies, separator: "; "))) }

        let (contentType, body) = self.body(&document, fromParameter: bodyFromParameter, formFields: formFields)
        if let contentType { headers.append(.init("Content-Type", .data(contentType))) }

        var url = ImportedText.variable(baseVariable) + Self.path(path, variables: pathVariables)
        if !query.isEmpty {
            // A parameter's name is data of the query: encoded, so it cannot add a `&` or `=` of its own.
            let encoded = query.map { (URLBuilder.encode($0.0, allowed: URLBuilder.unreserved), $0.1) }
            url += .data("?") + Self.joined(encoded, separator: "&")
        }
        let summary = operation["summary"] as? String
        var request = ImportedRequest(name: name, title: summary ?? name, method: method, url: url)
        if operation["deprecated"] as? Bool == true { request.comments.append("deprecated") }
        if !optional.isEmpty { request.comments.append("optional parameters left out: \(optional.joined(separator: ", "))") }
        request.variables = variables
        request.headers = headers
        request.body = body.map(ImportedBody.text) ?? .none
        return request
    }

    /// What a path's text keeps as it is (RFC 3986 pchar and `/`): a `?` or `#` in a path key is part of
    /// the path, not the start of a query or fragment.
    static let pathCharacters = URLBuilder.allowedLiteral.subtracting(CharacterSet(charactersIn: "?#[]"))

    /// The path with each `{name}` of a path parameter as its variable; the rest is data of the path.
    static func path(_ path: String, variables: [String: String]) -> ImportedText {
        var result = ImportedText()
        var rest = Substring(path)
        func data(_ text: some StringProtocol) -> ImportedText {
            .data(URLBuilder.encode(String(text), allowed: pathCharacters))
        }
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            result += data(rest[..<open])
            result += variables[name].map(ImportedText.variable) ?? data(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + data(rest)
    }

    /// `name=value` pairs joined by `separator`.
    static func joined(_ pairs: [(String, ImportedText)], separator: String) -> ImportedText {
        var result = ImportedText()
        for (index, (name, value)) in pairs.enumerated() {
            if index > 0 { result += .data(separator) }
            result += .data(name + "=") + value
        }
        return result
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

    /// The Content-Type and body: JSON from the first JSON media type's example or schema, form fields
    /// urlencoded, plain text as is; other media types are noted and sent without a body.
    private func body(_ document: inout OpenAPIDocument, fromParameter: Any?,
                      formFields: [(String, ImportedText)]) -> (String?, ImportedText?) {
        if let fromParameter { return ("application/json", .data(OpenAPIExample.json(fromParameter))) }
        if !formFields.isEmpty {
            let encoded = formFields.map { (URLBuilder.encode($0.0, allowed: URLBuilder.unreserved), $0.1) }
            return ("application/x-www-form-urlencoded", Self.joined(encoded, separator: "&"))
        }
        guard let requestBody = document.resolve(operation["requestBody"]),
              let content = requestBody["content"] as? [String: Any], !content.isEmpty else { return (nil, nil) }
        let types = content.keys.sorted()
        if let json = types.first(where: { $0.contains("json") }), let media = document.resolve(content[json]) {
            return (json, .data(OpenAPIExample.json(OpenAPIExample.of(media, in: &document) ?? [:])))
        }
        if let form = types.first(where: { $0 == "application/x-www-form-urlencoded" }),
           let media = document.resolve(content[form]) {
            let object = OpenAPIExample.of(media, in: &document) as? [String: Any] ?? [:]
            let pairs = object.keys.sorted().map { key in
                let name = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                return "\(name)=\(OpenAPIExample.text(object[key]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            }
            return (form, .data(pairs.joined(separator: "&")))
        }
        if let text = types.first(where: { $0.hasPrefix("text/") }), let media = document.resolve(content[text]) {
            return (text, .data(OpenAPIExample.text(OpenAPIExample.of(media, in: &document) ?? "text")))
        }
        document.note("request bodies of type \(types.joined(separator: ", ")) are left out (\(name))")
        return (nil, nil)
    }
}

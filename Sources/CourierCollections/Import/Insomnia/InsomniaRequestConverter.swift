import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// Converts one Insomnia request: URL and its parameters, headers, body, authentication and description.
struct InsomniaRequestConverter {
    let path: String
    private(set) var notes: [String] = []
    /// The boundary for multipart bodies; fixed so imports are reproducible.
    static let boundary = "InsomniaFormBoundary"

    init(path: String) { self.path = path }

    /// A field's text with its templates converted; tags left as text are noted.
    private mutating func text(_ source: String, field: String) -> ImportedText {
        var unconverted: [String] = []
        let text = InsomniaTemplate.text(source, unconverted: &unconverted)
        for item in unconverted { notes.append("\(path).\(field): \(DataSpelling.oneLine(item)) kept as text") }
        return text
    }

    mutating func convert(_ json: JSONValue, name: String) -> ImportedRequest {
        var url = text(json["url"]?.stringValue ?? "", field: "url")
        let parameters = (json["parameters"]?.arrayValue ?? []).filter { $0["disabled"]?.boolValue != true }
        for (index, parameter) in parameters.enumerated() {
            let separator = index == 0 && !url.description.contains("?") ? "?" : "&"
            url += .data(separator) + formEncoded(parameter["name"]?.stringValue ?? "", field: "parameters")
                + .data("=") + formEncoded(parameter["value"]?.stringValue ?? "", field: "parameters")
        }
        var imported = ImportedRequest(name: name, method: json["method"]?.stringValue ?? "GET", url: url)
        if let description = json["description"]?.stringValue, !description.isEmpty {
            imported.comments = [description]
        }
        for header in json["headers"]?.arrayValue ?? [] {
            guard let key = header["name"]?.stringValue, !key.isEmpty else { continue }
            let value = header["value"]?.stringValue ?? ""
            if header["disabled"]?.boolValue == true { imported.disabledHeaders.append("\(key): \(value)"); continue }
            imported.headers.append(.init(key, text(value, field: "headers")))
        }
        authentication(json["authentication"], into: &imported)
        imported.body = body(json["body"], headers: &imported.headers)
        return imported
    }

    private mutating func formEncoded(_ source: String, field: String) -> ImportedText {
        text(source, field: field).formEncoded
    }

    // MARK: - Auth

    /// Basic and bearer as headers, an API key as a header or query parameter; other kinds are noted.
    private mutating func authentication(_ auth: JSONValue?, into request: inout ImportedRequest) {
        guard let auth, let type = auth["type"]?.stringValue, auth["disabled"]?.boolValue != true,
              type != "none", !type.isEmpty else { return }
        func field(_ key: String) -> ImportedText {
            text(auth[key]?.stringValue ?? "", field: "authentication.\(key)")
        }
        switch type {
        case "bearer":
            let prefix = auth["prefix"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "Bearer"
            request.setHeader("Authorization", .data(prefix + " ") + field("token"))
        case "basic":
            // Two words after Basic: the resolver encodes them, so variables inside still work.
            request.setHeader("Authorization", .data("Basic ") + field("username") + .data(" ") + field("password"))
        case "apikey":
            let key = auth["key"]?.stringValue ?? "X-API-Key"
            if auth["addTo"]?.stringValue == "queryParams" {
                request.url += .data(request.url.description.contains("?") ? "&" : "?")
                    + formEncoded(key, field: "authentication.key") + .data("=") + field("value")
            } else {
                request.setHeader(key, field("value"))
            }
        default:
            notes.append("\(path).authentication: \(type) authentication not converted")
        }
    }

    // MARK: - Body

    private mutating func body(_ body: JSONValue?, headers: inout [ImportedRequest.Field]) -> ImportedBody {
        guard let body, body.objectValue?.isEmpty == false else { return .none }
        let mimeType = body["mimeType"]?.stringValue ?? ""
        func contentType(_ value: String) {
            if !value.isEmpty, !headers.contains(where: { $0.name.caseInsensitiveEquals("Content-Type") }) {
                headers.append(.init("Content-Type", .data(value)))
            }
        }
        if let file = body["fileName"]?.stringValue, !file.isEmpty {
            contentType(mimeType)
            return .file(path: .data(file))
        }
        let params = (body["params"]?.arrayValue ?? []).filter { $0["disabled"]?.boolValue != true }
        switch mimeType {
        case "application/x-www-form-urlencoded":
            contentType(mimeType)
            var joined = ImportedText()
            for (index, param) in params.enumerated() {
                if index > 0 { joined += .data("&") }
                joined += formEncoded(param["name"]?.stringValue ?? "", field: "body.params") + .data("=")
                    + formEncoded(param["value"]?.stringValue ?? "", field: "body.params")
            }
            return joined.isEmpty ? .none : .text(joined)
        case "multipart/form-data":
            headers.removeAll { $0.name.caseInsensitiveEquals("Content-Type") }
            headers.append(.init("Content-Type", .data("multipart/form-data; boundary=\(Self.boundary)")))
            let parts = params.map { param -> ImportedPart in
                let name = param["name"]?.stringValue ?? ""
                if param["type"]?.stringValue == "file" {
                    let file = param["fileName"]?.stringValue ?? ""
                    return ImportedPart(name: name, fileName: (file as NSString).lastPathComponent,
                                        contentType: "application/octet-stream", value: .file(path: .data(file)))
                }
                let value = text(param["value"]?.stringValue ?? "", field: "body.params")
                return ImportedPart(name: name, value: .text(value))
            }
            return .multipart(boundary: Self.boundary, parts: parts)
        case "application/graphql":
            // Insomnia keeps a GraphQL body as the JSON it sends.
            headers.removeAll { $0.name.caseInsensitiveEquals("Content-Type") && $0.value.description == mimeType }
            contentType("application/json")
            return .text(text(body["text"]?.stringValue ?? "", field: "body.text"))
        default:
            contentType(mimeType)
            let value = body["text"]?.stringValue ?? ""
            return value.isEmpty ? .none : .text(text(value, field: "body.text"))
        }
    }
}

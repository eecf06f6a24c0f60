import CourierBody
import CourierHTTP
import Foundation

/// Converts one Postman request object into a template, noting what it cannot carry over.
struct PostmanRequestConverter {
    let location: String
    let scope: PostmanImporter.Scope
    private(set) var report: [String] = []
    private(set) var disabledHeaders: [String] = []
    private(set) var descriptionLines: [String] = []
    /// The boundary for formdata bodies; fixed so imports are reproducible.
    static let boundary = "PostmanFormBoundary"

    init(location: String, scope: PostmanImporter.Scope) {
        self.location = location
        self.scope = scope
    }

    mutating func convert(_ request: JSONValue, name: String) -> RequestTemplate {
        // A request may be only a URL string.
        if let url = request.stringValue {
            return RequestTemplate(id: RequestTemplateID(file: "", ordinal: 0), name: name, url: url,
                                   variables: scope.variables)
        }
        let method = HTTPMethod(request["method"]?.stringValue ?? "GET")
        var variables = scope.variables
        var url = self.url(request["url"], variables: &variables)
        var headers = HTTPHeaders()
        for header in request["header"]?.arrayValue ?? [] {
            guard let key = header["key"]?.stringValue else { continue }
            let value = header["value"]?.text ?? ""
            if header["disabled"]?.boolValue == true { disabledHeaders.append("\(key): \(value)"); continue }
            headers.add(key, value)
        }
        let description = request["description"]?.stringValue ?? request["description"]?["content"]?.stringValue
        if let description {
            descriptionLines = description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        applyAuth(request["auth"] ?? scope.auth, headers: &headers, url: &url)
        let body = self.body(request["body"], headers: &headers)
        return RequestTemplate(id: RequestTemplateID(file: "", ordinal: 0), name: name, method: method, url: url,
                               headers: headers, body: body, variables: variables)
    }

    // MARK: - URL

    /// `url` as a string, or as an object: `raw` when present, else built from its parts. Path variables
    /// (`:id`) become `{{id}}` with a request variable holding their value.
    private mutating func url(_ value: JSONValue?, variables: inout [VariableDefinition]) -> String {
        guard let value else { report.append("\(location): no URL"); return "" }
        if let text = value.stringValue { return text }
        var url: String
        if let raw = value["raw"]?.stringValue {
            url = raw
        } else {
            let protocolName = value["protocol"]?.stringValue.map { $0 + "://" } ?? ""
            let host = value["host"]?.arrayValue?.map(\.text).joined(separator: ".") ?? value["host"]?.stringValue ?? ""
            let port = value["port"]?.stringValue.map { ":" + $0 } ?? ""
            let path = value["path"]?.arrayValue?.map(\.text).joined(separator: "/") ?? value["path"]?.stringValue ?? ""
            url = protocolName + host + port + (path.isEmpty ? "" : "/" + path)
            let query = (value["query"]?.arrayValue ?? []).filter { $0["disabled"]?.boolValue != true }.map { item in
                (item["key"]?.text ?? "") + (item["value"].map { $0 == .null ? "" : "=" + $0.text } ?? "")
            }
            if !query.isEmpty { url += "?" + query.joined(separator: "&") }
        }
        for variable in value["variable"]?.arrayValue ?? [] {
            guard let key = variable["key"]?.stringValue, !key.isEmpty else { continue }
            url = url.replacingOccurrences(of: "/:\(key)", with: "/{{\(key)}}")
            variables.append(VariableDefinition(name: key, value: variable["value"]?.text ?? ""))
        }
        return url
    }

    // MARK: - Auth

    private mutating func applyAuth(_ auth: JSONValue?, headers: inout HTTPHeaders, url: inout String) {
        guard let auth, let type = auth["type"]?.stringValue, type != "noauth", type != "inherit" else { return }
        func field(_ key: String) -> String? {
            auth[type]?.arrayValue?.first { $0["key"]?.stringValue == key }?["value"]?.text
        }
        switch type {
        case "bearer":
            headers.set("Authorization", "Bearer \(field("token") ?? "")")
        case "basic":
            // Two words after Basic: the resolver encodes them, so variables inside still work.
            headers.set("Authorization", "Basic \(field("username") ?? "") \(field("password") ?? "")")
        case "apikey":
            let key = field("key") ?? "X-API-Key"
            let value = field("value") ?? ""
            if field("in") == "query" {
                url += (url.contains("?") ? "&" : "?") + "\(key)=\(value)"
            } else {
                headers.set(key, value)
            }
        default:
            report.append("\(location): \(type) auth not converted")
        }
    }

    // MARK: - Body

    private mutating func body(_ body: JSONValue?, headers: inout HTTPHeaders) -> BodyTemplate {
        guard let body, body["disabled"]?.boolValue != true, let mode = body["mode"]?.stringValue else { return .none }
        func contentType(_ value: String) { if !headers.contains("Content-Type") { headers.add("Content-Type", value) } }
        switch mode {
        case "raw":
            let raw = body["raw"]?.stringValue ?? ""
            if raw.isEmpty { return .none }
            switch body["options"]?["raw"]?["language"]?.stringValue {
            case "json": contentType("application/json")
            case "xml": contentType("application/xml")
            case "html": contentType("text/html")
            case "javascript": contentType("application/javascript")
            default: break
            }
            // The file format treats a line starting with `###` as a separator; such a body cannot be kept whole.
            if raw.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("###") }) {
                report.append("\(location): body has a line starting with ###, which .http reads as a separator")
            }
            return .text(raw.replacingOccurrences(of: "\r\n", with: "\n"))
        case "urlencoded":
            contentType("application/x-www-form-urlencoded")
            let pairs = (body["urlencoded"]?.arrayValue ?? []).filter { $0["disabled"]?.boolValue != true }.map { pair in
                Self.formEncode(pair["key"]?.text ?? "") + "=" + Self.formEncode(pair["value"]?.text ?? "")
            }
            return pairs.isEmpty ? .none : .text(pairs.joined(separator: "&"))
        case "formdata":
            contentType("multipart/form-data; boundary=\(Self.boundary)")
            var lines: [String] = []
            for part in body["formdata"]?.arrayValue ?? [] where part["disabled"]?.boolValue != true {
                let key = part["key"]?.text ?? ""
                lines.append("--\(Self.boundary)")
                if part["type"]?.stringValue == "file" {
                    let source = part["src"]?.stringValue ?? part["src"]?.arrayValue?.first?.stringValue ?? ""
                    let filename = (source as NSString).lastPathComponent
                    lines.append("Content-Disposition: form-data; name=\"\(key)\"; filename=\"\(filename)\"")
                    lines.append("Content-Type: \(part["contentType"]?.stringValue ?? "application/octet-stream")")
                    lines += ["", "< \(source)"]
                    if source.isEmpty { report.append("\(location): file field '\(key)' has no file") }
                } else {
                    lines.append("Content-Disposition: form-data; name=\"\(key)\"")
                    if let type = part["contentType"]?.stringValue { lines.append("Content-Type: \(type)") }
                    lines += ["", part["value"]?.text ?? ""]
                }
            }
            lines.append("--\(Self.boundary)--")
            return .text(lines.joined(separator: "\n"))
        case "file":
            guard let source = body["file"]?["src"]?.stringValue, !source.isEmpty else {
                report.append("\(location): file body has no file")
                return .none
            }
            return .file(path: source, substituteVariables: false)
        case "graphql":
            contentType("application/json")
            let query = body["graphql"]?["query"]?.stringValue ?? ""
            let variables = body["graphql"]?["variables"]?.stringValue ?? ""
            var json = "{\"query\": " + JSONValue.quoted(query)
            if !variables.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { json += ", \"variables\": " + variables }
            return .text(json + "}")
        default:
            report.append("\(location): body mode '\(mode)' not converted")
            return .none
        }
    }

    /// Form encoding that leaves `{{variables}}` alone so they still resolve.
    static func formEncode(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += encode(rest[..<open.lowerBound]) + rest[open.lowerBound..<close.upperBound]
            rest = rest[close.upperBound...]
        }
        return result + encode(rest)
    }

    private static func encode(_ text: Substring) -> String {
        String(text).addingPercentEncoding(withAllowedCharacters: URLBuilder.unreserved) ?? String(text)
    }
}

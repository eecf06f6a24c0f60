import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// Converts one Postman request object into an imported request, noting what it cannot carry over. Every
/// string is Postman's text, whose `{{name}}` is a variable (`ImportedText(template:)`).
struct PostmanRequestConverter {
    let location: String
    let scope: PostmanImporter.Scope
    var report: [String] = []
    /// Credentials the collection spells out in its auth: they go to the private environment file, and the
    /// request names them (`{{bearer-token}}`), so no `.http` file holds a secret.
    var secrets: PrivateVariables
    /// The boundary for formdata bodies; fixed so imports are reproducible.
    static let boundary = "PostmanFormBoundary"

    init(location: String, scope: PostmanImporter.Scope, secrets: PrivateVariables) {
        self.location = location
        self.scope = scope
        self.secrets = secrets
    }

    /// `value` as the request writes it: a literal credential becomes a private variable named after `hint`;
    /// one that already reads a variable (`{{token}}`), or none, stays as written.
    private mutating func credential(_ value: String?, hint: String) -> String {
        guard let value, !value.isEmpty, !value.contains("{{") else { return value ?? "" }
        return "{{\(secrets.name(for: value, hint: hint))}}"
    }

    mutating func convert(_ request: JSONValue, name: String) -> ImportedRequest {
        // A request may be only a URL string.
        if let url = request.stringValue {
            var imported = ImportedRequest(name: name, method: "GET", url: ImportedText(template: url))
            imported.variables = scope.variables
            return imported
        }
        var imported = ImportedRequest(name: name, method: request["method"]?.stringValue ?? "GET", url: ImportedText())
        var pruned: [ImportedRequest.Field] = []
        imported.variables = scope.variables
        var url = self.url(request["url"], variables: &imported.variables)
        for header in request["header"]?.arrayValue ?? [] {
            guard let key = header["key"]?.stringValue else { continue }
            let value = header["value"]?.text ?? ""
            if header["disabled"]?.boolValue == true { imported.disabledHeaders.append("\(key): \(value)"); continue }
            imported.headers.append(.init(key, ImportedText(template: value)))
        }
        let description = request["description"]?.stringValue ?? request["description"]?["content"]?.stringValue
        if let description { imported.comments = [description] }
        applyAuth(PostmanAuth.own(request["auth"]) ?? scope.auth, headers: &imported.headers, url: &url, variables: &imported.variables)
        imported.url = ImportedText(template: url)
        if PostmanBehavior.sendsBody(imported.method, scope.behavior) {
            imported.body = body(request["body"], headers: &imported.headers)
        } else if request["body"]?["mode"] != nil, self.body(request["body"], headers: &pruned) != .none {
            report.append("\(location): the body of a \(imported.method.uppercased()) request is left out, as Postman "
                + "leaves it out (protocolProfileBehavior.disableBodyPruning sends it)")
        }
        return imported
    }

    // MARK: - URL

    /// `url` as a string, or as an object: `raw` when present, else built from its parts. Path variables
    /// (`:id`) become `{{id}}` with a request variable holding their value.
    private mutating func url(_ value: JSONValue?, variables: inout [ImportedRequest.Field]) -> String {
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
            // Only a name `.http` can hold becomes a variable; another `:key` stays text of the URL.
            guard let key = variable["key"]?.stringValue, DataSpelling.isVariableName(key),
                  ImportedText.isSourceVariable(key) else { continue }
            url = url.replacingOccurrences(of: "/:\(key)", with: "/{{\(key)}}")
            variables.append(.init(key, ImportedText(template: variable["value"]?.text ?? "")))
        }
        return url
    }

    // MARK: - Auth

    private mutating func applyAuth(_ auth: JSONValue?, headers: inout [ImportedRequest.Field], url: inout String,
                                    variables: inout [ImportedRequest.Field]) {
        guard let auth, let type = auth["type"]?.stringValue, type != "noauth", type != "inherit" else { return }
        // v2.1 lists `{key, value}` pairs; v2.0 may hold an object of values instead.
        func field(_ key: String) -> String? {
            if let list = auth[type]?.arrayValue { return list.first { $0["key"]?.stringValue == key }?["value"]?.text }
            return auth[type]?[key]?.text
        }
        // As `HTTPHeaders.set`: one field, where the first of that name was.
        func set(_ name: String, _ value: String) {
            let field = ImportedRequest.Field(name, ImportedText(template: value))
            guard let first = headers.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
                headers.append(field)
                return
            }
            headers[first] = field
            headers = headers.enumerated().filter { $0.offset == first || !$0.element.name.caseInsensitiveEquals(name) }
                .map(\.element)
        }
        // Credentials stand in the private environment file; the request names them.
        func secret(_ key: String, as hint: String) -> String? {
            guard let text = field(key) else { return nil }
            return credential(text, hint: hint)
        }
        switch type {
        case "bearer":
            set("Authorization", "Bearer \(secret("token", as: "bearer-token") ?? "")")
        case "basic":
            // Two words after Basic: the resolver encodes them, so variables inside still work.
            set("Authorization", "Basic \(field("username") ?? "") \(secret("password", as: "basic-password") ?? "")")
        case "apikey":
            let key = field("key") ?? "X-API-Key"
            let value = secret("value", as: key) ?? ""
            if field("in") == "query" {
                url += (url.contains("?") ? "&" : "?") + "\(key)=\(value)"
            } else {
                set(key, value)
            }
        case "oauth2" where field("addTokenTo") == "queryParams" && !(field("accessToken") ?? "").isEmpty:
            // The token the collection keeps, sent as Postman sends it when told to: `access_token` in the query.
            url += (url.contains("?") ? "&" : "?") + "access_token=\(secret("accessToken", as: "oauth2-access-token") ?? "")"
        default:
            let hints = ["password": "\(type)-password", "secretKey": "aws-secret-key", "sessionToken": "aws-session-token",
                         "accessToken": "oauth2-access-token", "clientSecret": "oauth2-client-secret",
                         "consumerSecret": "oauth1-consumer-secret", "token": "oauth1-token",
                         "tokenSecret": "oauth1-token-secret"]
            guard let lines = PostmanAuth.lines(type, field: { key in hints[key].map { secret(key, as: $0) } ?? field(key) })
            else {
                report.append("\(location): \(type) auth not converted: the request goes without it; "
                              + PostmanAuth.advice(type, field: field))
                return
            }
            for (name, value) in lines.headers { set(name, value) }
            for (name, value) in lines.variables { variables.append(.init(name, ImportedText(template: value))) }
        }
    }

    // MARK: - Body

    private mutating func body(_ body: JSONValue?, headers: inout [ImportedRequest.Field]) -> ImportedBody {
        guard let body, body["disabled"]?.boolValue != true, let mode = body["mode"]?.stringValue else { return .none }
        func contentType(_ value: String) {
            if !headers.contains(where: { $0.name.caseInsensitiveEquals("Content-Type") }) {
                headers.append(.init("Content-Type", .data(value)))
            }
        }
        switch mode {
        case "raw":
            let raw = body["raw"]?.stringValue ?? ""
            if raw.isEmpty { return .none }
            switch body["options"]?["raw"]?["language"]?.stringValue {
            case "json": contentType("application/json")
            case "xml": contentType("application/xml")
            case "html": contentType("text/html")
            case "javascript": contentType("application/javascript")
            case "text": contentType("text/plain")
            default: break
            }
            return .text(ImportedText(template: raw.replacingOccurrences(of: "\r\n", with: "\n")))
        case "urlencoded":
            contentType("application/x-www-form-urlencoded")
            let pairs = (body["urlencoded"]?.arrayValue ?? []).filter { $0["disabled"]?.boolValue != true }.map { pair in
                Self.formEncoded(pair["key"]?.text ?? "") + .data("=") + Self.formEncoded(pair["value"]?.text ?? "")
            }
            guard var joined = pairs.first else { return .none }
            for pair in pairs.dropFirst() { joined += .data("&") + pair }
            return .text(joined)
        case "formdata":
            contentType("multipart/form-data; boundary=\(Self.boundary)")
            var parts: [ImportedPart] = []
            for part in body["formdata"]?.arrayValue ?? [] where part["disabled"]?.boolValue != true {
                let key = part["key"]?.text ?? ""
                if part["type"]?.stringValue == "file" {
                    let source = part["src"]?.stringValue ?? part["src"]?.arrayValue?.first?.stringValue ?? ""
                    if source.isEmpty { report.append("\(location): file field '\(key)' has no file") }
                    let type = part["contentType"]?.stringValue ?? "application/octet-stream"
                    parts.append(ImportedPart(name: key, fileName: (source as NSString).lastPathComponent,
                                              contentType: type, value: .file(path: ImportedText(template: source))))
                } else {
                    parts.append(ImportedPart(name: key, contentType: part["contentType"]?.stringValue,
                                              value: .text(ImportedText(template: part["value"]?.text ?? ""))))
                }
            }
            return .multipart(boundary: Self.boundary, parts: parts)
        case "file":
            guard let source = body["file"]?["src"]?.stringValue, !source.isEmpty else {
                report.append("\(location): file body has no file")
                return .none
            }
            return .file(path: ImportedText(template: source))
        case "graphql":
            contentType("application/json")
            let query = body["graphql"]?["query"]?.stringValue ?? ""
            // Postman saves the variables as JSON text; some exporters write the object itself.
            let saved = body["graphql"]?["variables"]
            let variables = saved?.stringValue ?? (saved?.objectValue != nil ? saved?.text ?? "" : "")
            var json = "{\"query\": " + JSONValue.quoted(query)
            if !variables.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { json += ", \"variables\": " + variables }
            return .text(ImportedText(template: json + "}"))
        default:
            report.append("\(location): body mode '\(mode)' not converted")
            return .none
        }
    }

    /// Form encoding of the data; `{{variables}}` stay as they are so they still resolve.
    static func formEncoded(_ text: String) -> ImportedText {
        ImportedText(template: text).mapData {
            $0.addingPercentEncoding(withAllowedCharacters: URLBuilder.unreserved) ?? $0
        }
    }
}

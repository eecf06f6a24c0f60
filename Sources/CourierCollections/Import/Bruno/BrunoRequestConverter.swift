import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// Converts one `.bru` request: its verb block (URL, body and auth modes), path parameters, headers,
/// bodies, auth, request variables, and what Courier's JetBrains script layer can run of its post-response
/// variables and assertions. Bruno's scripts and tests use its own `req`/`res`/`bru` objects: noted, not converted.
struct BrunoRequestConverter {
    static let methods: Set<String> = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"]

    let path: String
    let inherited: BrunoImporter.Inherited
    private(set) var notes: [String] = []

    init(path: String, inherited: BrunoImporter.Inherited) {
        self.path = path
        self.inherited = inherited
    }

    mutating func convert(_ file: BruFile, fallbackName: String) -> ImportedRequest {
        let verb = file.blocks.first { Self.methods.contains($0.name) }
        let method = verb?.name.uppercased() ?? "GET"
        let http = verb?.name ?? "get"
        var url = file.value("url", in: http) ?? ""
        var imported = ImportedRequest(name: file.value("name", in: "meta") ?? fallbackName, method: method,
                                       url: ImportedText())
        for pair in file.block("params:path")?.pairs ?? [] where pair.enabled {
            url = url.replacingOccurrences(of: "/:\(pair.key)", with: "/{{\(pair.key)}}")
            imported.variables.append(.init(pair.key, BrunoText.text(pair.value)))
        }
        imported.url = BrunoText.text(url)
        for pair in file.block("vars:pre-request")?.pairs ?? [] where pair.enabled {
            imported.variables.append(.init(pair.key.hasPrefix("@") ? String(pair.key.dropFirst()) : pair.key,
                                            BrunoText.text(pair.value)))
        }
        var headers = inherited.headers
        for pair in file.block("headers")?.pairs ?? [] {
            guard pair.enabled else { imported.disabledHeaders.append("\(pair.key): \(pair.value)"); continue }
            headers.removeAll { $0.key.caseInsensitiveEquals(pair.key) }
            headers.append(pair)
        }
        imported.headers = headers.map { .init($0.key, BrunoText.text($0.value)) }
        if let docs = file.block("docs")?.text, !docs.isEmpty { imported.comments.append(docs) }
        let authMode = file.value("auth", in: http) ?? "none"
        if authMode == "inherit", let auth = inherited.auth {
            authorize(auth.mode, from: auth.file, into: &imported)
        } else {
            authorize(authMode, from: file, into: &imported)
        }
        imported.body = body(file, mode: file.value("body", in: http) ?? "none", headers: &imported.headers)
        imported.responseScripts = BrunoScripts.responseScripts(file, path: path, notes: &notes)
        for name in ["script:pre-request", "script:post-response", "tests"]
        where !(file.block(name)?.text.trimmingBlanks.isEmpty ?? true) {
            let line = file.block(name)?.line ?? 0
            notes.append("\(path):\(line): \(name) uses Bruno's req/res/bru objects; not converted")
        }
        return imported
    }

    // MARK: - Auth

    private mutating func authorize(_ mode: String, from file: BruFile, into request: inout ImportedRequest) {
        func set(_ value: ImportedText) { request.setHeader("Authorization", value) }
        func field(_ key: String) -> ImportedText { BrunoText.text(file.value(key, in: "auth:\(mode)") ?? "") }
        switch mode {
        case "none", "inherit": break
        case "bearer": set(.data("Bearer ") + field("token"))
        // Two words after Basic: the resolver encodes them, so variables inside still work.
        case "basic": set(.data("Basic ") + field("username") + .data(" ") + field("password"))
        default: notes.append("\(path): auth:\(mode) not converted")
        }
    }

    // MARK: - Body

    private mutating func body(_ file: BruFile, mode: String, headers: inout [ImportedRequest.Field]) -> ImportedBody {
        func contentType(_ value: String) {
            if !headers.contains(where: { $0.name.caseInsensitiveEquals("Content-Type") }) {
                headers.append(.init("Content-Type", .data(value)))
            }
        }
        func text(_ block: String) -> String? {
            file.block(block).map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        }
        switch mode {
        case "none": return .none
        case "json", "text", "xml", "sparql":
            guard let body = text("body:\(mode)") else { return .none }
            contentType(["json": "application/json", "text": "text/plain", "xml": "application/xml",
                         "sparql": "application/sparql-query"][mode] ?? "text/plain")
            return .text(BrunoText.text(body))
        case "formUrlEncoded":
            contentType("application/x-www-form-urlencoded")
            var joined = ImportedText()
            for (index, pair) in (file.block("body:form-urlencoded")?.pairs ?? []).filter(\.enabled).enumerated() {
                if index > 0 { joined += .data("&") }
                joined += BrunoText.text(pair.key).formEncoded + .data("=") + BrunoText.text(pair.value).formEncoded
            }
            return joined.isEmpty ? .none : .text(joined)
        case "multipartForm":
            let boundary = "BrunoFormBoundary"
            headers.removeAll { $0.name.caseInsensitiveEquals("Content-Type") }
            headers.append(.init("Content-Type", .data("multipart/form-data; boundary=\(boundary)")))
            let fields = (file.block("body:multipart-form")?.pairs ?? []).filter(\.enabled)
            let parts = fields.map { pair -> ImportedPart in
                if pair.value.hasPrefix("@file("), pair.value.hasSuffix(")") {
                    // `@file(a.png|b.png)`: Bruno sends each; the first is the part's file here.
                    let paths = String(pair.value.dropFirst(6).dropLast()).split(separator: "|")
                    let file = paths.first.map(String.init) ?? ""
                    return ImportedPart(name: pair.key, fileName: (file as NSString).lastPathComponent,
                                        contentType: "application/octet-stream",
                                        value: .file(path: BrunoText.text(file)))
                }
                return ImportedPart(name: pair.key, value: .text(BrunoText.text(pair.value)))
            }
            return .multipart(boundary: boundary, parts: parts)
        case "graphql":
            contentType("application/json")
            let query = text("body:graphql") ?? ""
            let variables = text("body:graphql:vars")?.trimmingBlanks ?? ""
            // The JSON Bruno sends; the query's own text is data, its {{variables}} still variables.
            var json = ImportedText.data("{\"query\": ") + BrunoText.text(JSONValue.quoted(query))
            if !variables.isEmpty { json += .data(", \"variables\": ") + BrunoText.text(variables) }
            return .text(json + .data("}"))
        default:
            notes.append("\(path): body mode '\(mode)' not converted")
            return .none
        }
    }
}

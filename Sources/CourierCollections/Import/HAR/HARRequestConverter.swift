import CourierBody
import CourierHTTP
import CourierMessage
import CourierSecurity
import Foundation

/// Converts one HAR request into an imported request. Everything in a HAR is data (a `{{` in it is two
/// braces); credentials become variables of the private environment.
struct HARRequestConverter {
    /// The entry's JSON path, for notes.
    let path: String
    var secrets: PrivateVariables
    private(set) var notes: [String] = []

    init(path: String, secrets: PrivateVariables) {
        self.path = path
        self.secrets = secrets
    }

    mutating func convert(_ request: JSONValue, method: String, url: String, name: String) -> ImportedRequest {
        var imported = ImportedRequest(name: name, method: method, url: self.url(url))
        var hasCookieHeader = false
        var dropped: Set<String> = []
        for header in request["headers"]?.arrayValue ?? [] {
            guard let name = header["name"]?.stringValue else { continue }
            let value = header["value"]?.stringValue ?? ""
            let lower = name.lowercased()
            if name.hasPrefix(":") || HARImporter.droppedHeaders[lower] != nil {
                dropped.insert(name.hasPrefix(":") ? "HTTP/2 pseudo-headers" : name)
                continue
            }
            if lower == "cookie" { hasCookieHeader = true }
            imported.headers.append(.init(name, headerValue(name: name, value: value)))
        }
        // Some tools keep cookies only in the `cookies` list.
        let cookies = (request["cookies"]?.arrayValue ?? []).compactMap { cookie -> String? in
            guard let name = cookie["name"]?.stringValue else { return nil }
            return name + "=" + (cookie["value"]?.stringValue ?? "")
        }
        if !hasCookieHeader, !cookies.isEmpty {
            let cookie = secrets.variable(for: cookies.joined(separator: "; "), hint: "cookie")
            imported.headers.append(.init("Cookie", cookie))
        }
        // The Cookie header is the browser's cookie state at that moment: the jar must not add its own.
        if imported.headers.contains(where: { $0.name.caseInsensitiveEquals("Cookie") }) {
            imported.tags["no-cookie-jar"] = ""
        }
        if !dropped.isEmpty {
            imported.comments.append("Left out, as the client sets them itself: "
                                     + dropped.sorted().joined(separator: ", "))
        }
        if let postData = request["postData"] { imported.body = body(postData, headers: &imported.headers) }
        return imported
    }

    /// The URL as data, with the value of each secret query parameter (`access_token=…`) a private variable.
    private mutating func url(_ text: String) -> ImportedText {
        // The query runs from the first `?` to a `#` after it; a `#` before any `?` makes it all fragment.
        guard let question = text.firstIndex(of: "?"), !text[..<question].contains("#") else { return .data(text) }
        let end = text[question...].firstIndex(of: "#") ?? text.endIndex
        var result = ImportedText.data(String(text[...question]))
        let pairs = text[text.index(after: question)..<end].split(separator: "&", omittingEmptySubsequences: false)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { result += .data("&") }
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
            guard SecretPolicy.isSecretParameter(name), !value.isEmpty,
                  decoded.unicodeScalars.allSatisfy({ URLBuilder.unreserved.contains($0) }) else {
                result += .data(String(pair))
                continue
            }
            result += .data(String(parts[0]) + "=") + secrets.variable(for: decoded, hint: name)
        }
        return result + .data(String(text[end...]))
    }

    /// A header's value; a credential goes to the private environment, its scheme (`Bearer `) kept in sight.
    private mutating func headerValue(name: String, value: String) -> ImportedText {
        guard SecretPolicy.isSecretHeader(name), !value.isEmpty else { return .data(value) }
        if let scheme = SecretPolicy.keptSchemes.first(where: { value.hasPrefix($0) }), value.count > scheme.count {
            return .data(scheme) + secrets.variable(for: String(value.dropFirst(scheme.count)), hint: name)
        }
        return secrets.variable(for: value, hint: name)
    }

    // MARK: - Body

    /// `postData`: its `text` as sent, else its `params` as a form (URL-encoded or multipart).
    private mutating func body(_ postData: JSONValue, headers: inout [ImportedRequest.Field]) -> ImportedBody {
        let mimeType = postData["mimeType"]?.stringValue ?? ""
        if !mimeType.isEmpty, !headers.contains(where: { $0.name.caseInsensitiveEquals("Content-Type") }) {
            headers.append(.init("Content-Type", .data(mimeType)))
        }
        if let text = postData["text"]?.stringValue, !text.isEmpty { return .text(.data(text)) }
        let params = postData["params"]?.arrayValue ?? []
        guard !params.isEmpty else { return .none }
        if mimeType.lowercased().hasPrefix("multipart/form-data") {
            let boundary = mimeType.range(of: "boundary=").map { String(mimeType[$0.upperBound...]) }
                .map { $0.trimmingCharacters(in: ["\""]) } ?? "HARFormBoundary"
            if !mimeType.contains("boundary=") {
                headers.removeAll { $0.name.caseInsensitiveEquals("Content-Type") }
                headers.append(.init("Content-Type", .data("multipart/form-data; boundary=\(boundary)")))
            }
            let parts = params.map { param -> ImportedPart in
                let name = param["name"]?.stringValue ?? ""
                if let file = param["fileName"]?.stringValue, !file.isEmpty {
                    notes.append("\(path): the HAR does not hold the file of part '\(DataSpelling.oneLine(name))'; "
                                 + "the request reads ./\(DataSpelling.oneLine(file)) beside it")
                    return ImportedPart(name: name, fileName: file, contentType: param["contentType"]?.stringValue,
                                        value: .file(path: .data("./" + file)))
                }
                return ImportedPart(name: name, contentType: param["contentType"]?.stringValue,
                                    value: .text(.data(param["value"]?.stringValue ?? "")))
            }
            return .multipart(boundary: boundary, parts: parts)
        }
        var encoded = ImportedText()
        for (index, param) in params.enumerated() {
            if index > 0 { encoded += .data("&") }
            encoded += ImportedText.data(param["name"]?.stringValue ?? "").formEncoded + .data("=")
                + ImportedText.data(param["value"]?.stringValue ?? "").formEncoded
        }
        return .text(encoded)
    }
}

import CourierHTTP
import CourierMessage
import Foundation

/// A request converted from a curl command, with notes on what was dropped or changed.
public struct CurlImport: Sendable {
    /// The request as a pasted curl command in a `.http` file reads.
    public var request: RequestTemplate
    /// The same request as data for `ImportWriter` (`courier import curl`): `{{name}}` in the command stays
    /// a variable, anything else is written as it was typed.
    public var imported: ImportedRequest
    public var notes: [String]
}

/// Converts the curl commands that browser dev tools ("Copy as cURL") and API docs produce.
public enum CurlImporter {
    /// Options that take a value Courier has no use for; the value is skipped with the option.
    static let ignoredWithValue: Set<String> = [
        "-o", "--output", "-w", "--write-out", "--connect-timeout", "--retry", "-c", "--cookie-jar",
        "--proxy", "-x", "--cacert", "--cert", "--key", "-r", "--range", "--limit-rate", "--max-redirs",
    ]
    /// Flags that change only curl's own output or defaults Courier already has (`--compressed`: Courier
    /// offers the compressions it decodes on every request).
    static let ignoredFlags: Set<String> = [
        "--compressed", "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include", "-L",
        "--location", "-f", "--fail", "--fail-with-body", "-#", "--progress-bar", "-N", "--no-buffer", "--http1.1", "--http2",
        "-g", "--globoff", "--path-as-is",
    ]
    /// Short options that take a value (so `-XPOST` and `-X POST` both work).
    static let shortWithValue: Set<Character> = ["X", "H", "d", "F", "u", "b", "A", "e", "o", "w", "m", "c", "x", "r"]
    /// The boundary used for `-F` bodies; fixed so imports are reproducible.
    public static let boundary = "CourierFormBoundary"

    private struct State {
        var method: String?
        var url: String?
        var headers = HTTPHeaders()
        var data: [String] = []
        var dataFile: String?
        var forms: [(name: String, value: String, isFile: Bool, type: String?)] = []
        var get = false
        var head = false
        var tags: [String: String] = [:]
        var notes: [String] = []
        var json = false
    }

    /// Parses `command` (with or without the leading `curl`).
    public static func convert(_ command: String, name: String? = nil) throws(CollectionError) -> CurlImport {
        var words: [String]
        switch ShellWords.split(command) {
        case .success(let split): words = split
        case .failure(let failure): throw .importFailed(source: "curl command", reason: failure.description)
        }
        if words.first == "curl" {
            words.removeFirst()
        } else if let first = words.first, !looksLikeCurlArgument(first) {
            // `wget …`, `http …` (HTTPie): another tool's command, not a curl command without its `curl`.
            throw .importFailed(source: "curl command",
                                reason: "'\(first)' is not curl: give a command that starts with curl, or its URL and options")
        }
        var state = State()
        var index = 0
        while index < words.count {
            var word = words[index]
            index += 1
            var attached: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "="),
               longOptionsWithValue.contains(String(word[..<equals])) {
                attached = String(word[word.index(after: equals)...])
                word = String(word[..<equals])
            } else if word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 2 {
                let letters = Array(word.dropFirst())
                if shortWithValue.contains(letters[0]) {
                    attached = String(letters.dropFirst())
                    word = "-" + String(letters[0])
                } else if letters.allSatisfy({ ignoredFlags.contains("-\($0)") || "kGIL".contains($0) }) {
                    words.insert(contentsOf: letters.map { "-\($0)" }, at: index)
                    continue
                }
            }
            func value() throws(CollectionError) -> String {
                if let attached { return attached }
                guard index < words.count else { throw .importFailed(source: "curl command", reason: "\(word) needs a value") }
                index += 1
                return words[index - 1]
            }
            try apply(word, value: value, to: &state)
        }
        return try build(state, name: name)
    }

    /// Whether the first word of a command without `curl` can start one: an option or a URL.
    static func looksLikeCurlArgument(_ word: String) -> Bool {
        word.hasPrefix("-") || word.contains("://") || word.contains(".") || word.contains(":") || word.contains("/")
            || word.hasPrefix("{{")
    }

    static let longOptionsWithValue: Set<String> = [
        "--request", "--header", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode",
        "--form", "--form-string", "--user", "--cookie", "--url", "--user-agent", "--referer", "--max-time", "--json",
        "--output", "--write-out", "--connect-timeout", "--retry", "--cookie-jar", "--proxy",
    ]

    private static func apply(_ word: String, value: () throws(CollectionError) -> String,
                              to state: inout State) throws(CollectionError) {
        switch word {
        case "-X", "--request": state.method = try value().uppercased()
        case "-H", "--header":
            let header = try value()
            guard let colon = header.firstIndex(of: ":") else {
                state.notes.append("header '\(header)' dropped: no value")
                return
            }
            state.headers.add(header[..<colon].trimmingCharacters(in: .whitespaces),
                              header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        case "-d", "--data", "--data-ascii", "--data-binary":
            let data = try value()
            if data.hasPrefix("@") { state.dataFile = String(data.dropFirst()) } else {
                state.data.append(word == "--data-binary" ? data : data.replacingOccurrences(of: "\n", with: ""))
            }
        case "--data-raw": state.data.append(try value())
        case "--data-urlencode": state.data.append(urlencoded(try value()))
        case "--json":
            state.json = true
            let data = try value()
            if data.hasPrefix("@") { state.dataFile = String(data.dropFirst()) } else { state.data.append(data) }
        case "-F", "--form", "--form-string":
            let field = try value()
            guard let equals = field.firstIndex(of: "=") else {
                throw .importFailed(source: "curl command", reason: "-F '\(field)' is not name=value")
            }
            var content = String(field[field.index(after: equals)...])
            var type: String?
            if word != "--form-string", let semicolon = content.range(of: ";type=") {
                type = String(content[semicolon.upperBound...])
                content = String(content[..<semicolon.lowerBound])
            }
            let isFile = word != "--form-string" && (content.hasPrefix("@") || content.hasPrefix("<"))
            state.forms.append((String(field[..<equals]), isFile ? String(content.dropFirst()) : content, isFile, type))
        case "-u", "--user":
            let credentials = try value()
            state.headers.add("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString())
        case "-b", "--cookie":
            let cookie = try value()
            if cookie.contains("=") { state.headers.add("Cookie", cookie) } else {
                state.notes.append("cookie file '\(cookie)' not imported")
            }
        case "-A", "--user-agent": state.headers.add("User-Agent", try value())
        case "-e", "--referer": state.headers.add("Referer", try value())
        case "--url": state.url = try value()
        case "-G", "--get": state.get = true
        case "-I", "--head": state.head = true
        case "-k", "--insecure": state.tags[Resolver.insecureTag] = ""
        case "-m", "--max-time": state.tags[Resolver.timeoutTag] = try value()
        default:
            if ignoredWithValue.contains(word) {
                _ = try value()
            } else if word.hasPrefix("-") && word.count > 1 {
                if !ignoredFlags.contains(word) { state.notes.append("option \(word) ignored") }
            } else if state.url == nil {
                state.url = word
            } else {
                state.notes.append("extra argument '\(word)' ignored")
            }
        }
    }

    private static func build(_ state: State, name: String?) throws(CollectionError) -> CurlImport {
        guard var url = state.url else { throw .importFailed(source: "curl command", reason: "no URL") }
        var headers = state.headers
        var body = BodyTemplate.none
        var method = state.method
        let joined = state.data.joined(separator: "&")
        if state.get {
            if !joined.isEmpty { url += (url.contains("?") ? "&" : "?") + joined }
        } else if let file = state.dataFile {
            body = .file(path: file, substituteVariables: false)
        } else if !state.data.isEmpty {
            body = .text(joined)
        }
        if !state.forms.isEmpty {
            body = .text(multipart(state.forms))
            if !headers.contains("Content-Type") {
                headers.add("Content-Type", "multipart/form-data; boundary=\(boundary)")
            }
        }
        if state.json {
            if !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
            if !headers.contains("Accept") { headers.add("Accept", "application/json") }
        } else if !body.isNone, state.forms.isEmpty, !headers.contains("Content-Type") {
            // curl sends -d data as a form unless told otherwise.
            headers.add("Content-Type", "application/x-www-form-urlencoded")
        }
        if method == nil {
            method = state.head ? "HEAD" : (body.isNone ? "GET" : "POST")
        }
        let template = RequestTemplate(id: RequestTemplateID(file: "", ordinal: 0), name: name,
                                       method: HTTPMethod(method ?? "GET"), url: url, headers: headers, body: body,
                                       tags: state.tags)
        var imported = ImportedRequest(name: name, method: method ?? "GET", url: ImportedText(template: url))
        imported.headers = headers.map { ImportedRequest.Field($0.name, ImportedText(template: $0.value)) }
        imported.tags = state.tags
        if !state.forms.isEmpty {
            imported.body = .multipart(boundary: boundary, parts: state.forms.map { form in
                form.isFile
                    ? ImportedPart(name: form.name, fileName: (form.value as NSString).lastPathComponent,
                                   contentType: form.type ?? "application/octet-stream",
                                   value: .file(path: ImportedText(template: form.value)))
                    : ImportedPart(name: form.name, contentType: form.type,
                                   value: .text(ImportedText(template: form.value)))
            })
        } else if case .file(let path, _) = body {
            imported.body = .file(path: ImportedText(template: path))
        } else if case .text(let text) = body {
            imported.body = .text(ImportedText(template: text))
        }
        return CurlImport(request: template, imported: imported, notes: state.notes)
    }

    private static func multipart(_ forms: [(name: String, value: String, isFile: Bool, type: String?)]) -> String {
        var lines: [String] = []
        for form in forms {
            lines.append("--\(boundary)")
            if form.isFile {
                let filename = (form.value as NSString).lastPathComponent
                lines.append("Content-Disposition: form-data; name=\"\(form.name)\"; filename=\"\(filename)\"")
                lines.append("Content-Type: \(form.type ?? "application/octet-stream")")
                lines += ["", "< \(form.value)"]
            } else {
                lines.append("Content-Disposition: form-data; name=\"\(form.name)\"")
                if let type = form.type { lines.append("Content-Type: \(type)") }
                lines += ["", form.value]
            }
        }
        lines.append("--\(boundary)--")
        return lines.joined(separator: "\n")
    }

    /// `--data-urlencode`: `name=value` encodes the value, `=value` and `value` encode it all.
    static func urlencoded(_ argument: String) -> String {
        let allowed = URLBuilder.unreserved
        if let equals = argument.firstIndex(of: "=") {
            let name = String(argument[..<equals])
            let content = String(argument[argument.index(after: equals)...])
            let encoded = content.addingPercentEncoding(withAllowedCharacters: allowed) ?? content
            return name.isEmpty ? encoded : "\(name)=\(encoded)"
        }
        return argument.addingPercentEncoding(withAllowedCharacters: allowed) ?? argument
    }
}

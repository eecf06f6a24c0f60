import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// What the JetBrains and VS Code dialects write that is not sent as written: origin-form request
/// lines, GraphQL requests, `&`-continued form bodies and the Basic and Digest shorthands.
extension Resolver {
    /// `GET /path HTTP/1.1` with a `Host:` header: the absolute URL (https when the host says port 443 or,
    /// as httpyac reads it, 8443; kulala.nvim writes the scheme into the header).
    static func absoluteURLText(_ template: RequestTemplate) -> String {
        // The asterisk form (`OPTIONS *` with a Host) goes to the host's root; the request line says `*`.
        if template.url == asteriskTarget, template.headers["Host"] != nil {
            var root = template
            root.url = "/"
            return absoluteURLText(root)
        }
        guard template.url.hasPrefix("/"), let host = template.headers["Host"]?.trimmingBlanks,
              !host.isEmpty else { return template.url }
        if host.contains("://") { return trimmingSlash(host) + template.url }
        let secure = host.hasSuffix(":443") || host.hasSuffix(":8443")
        return (secure ? "https://" : "http://") + host + template.url
    }

    /// JetBrains' `# @no-auto-encoding`: variables' values go into the URL as URL text, as the file's own text
    /// does (`%20` and `&` in a value keep their meaning), instead of being encoded as data.
    static let noAutoEncodingTag = "no-auto-encoding"

    /// The request target of `OPTIONS *` (kulala.nvim's asterisk form).
    static let asteriskTarget = "*"

    /// A gRPC call's target as a URL: `host:port/package.Service/Method` (clear text) and `grpc://` become
    /// `http://`, `grpcs://` becomes `https://`; the URL's path is the method's.
    static func gRPCURLText(_ written: String) -> String {
        let lowered = written.lowercased()
        if lowered.hasPrefix("grpcs://") { return "https://" + written.dropFirst(8) }
        if lowered.hasPrefix("grpc://") { return "http://" + written.dropFirst(7) }
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || written.hasPrefix("{{") { return written }
        return "http://" + written
    }

    /// The variable httpyac puts before a request line without a host (`POST /auth/login`).
    static let hostVariable = "host"

    /// What goes before a path-only request line without a `Host:` header: the `host` variable (a scheme
    /// added when it has none, its trailing `/` dropped); an error saying how to give one otherwise.
    func hostPieces(for template: RequestTemplate,
                    interpolator: inout Interpolator) throws(CollectionError) -> [Interpolator.Piece] {
        let host: String
        do {
            host = try interpolator.expand("{{\(Self.hostVariable)}}").trimmingBlanks
        } catch {
            guard case .unknownVariable(let name, _) = error, name == Self.hostVariable else { throw error }
            throw .missingHost(url: template.url, request: template.displayName)
        }
        guard !host.isEmpty else { throw .missingHost(url: template.url, request: template.displayName) }
        return [.value(host.contains("://") ? Self.trimmingSlash(host) : "http://" + Self.trimmingSlash(host))]
    }

    private static func trimmingSlash(_ text: String) -> String {
        text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The JSON body of a GraphQL request: `{"query": …, "variables": …}` from the query text and the
    /// optional JSON object after a blank line.
    static func graphQLBody(_ text: String, request: String, fragments: [String: String] = [:],
                            operationName: String? = nil) throws(CollectionError) -> Data {
        var query = text
        var variables: String?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).isEmpty {
            let rest = lines[(index + 1)...].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            guard rest.hasPrefix("{"), let parsed = try? JSONValue.parse(Data(rest.utf8)),
                  parsed.objectValue != nil else { continue }
            query = lines[..<index].joined(separator: "\n")
            variables = parsed.compactJSON
            break
        }
        query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { throw .graphQL(request: request, reason: "the request has no query") }
        // httpyac's fragments written outside the request go with the queries that spread them.
        for (name, fragment) in fragments.sorted(by: { $0.key < $1.key })
        where query.contains("..." + name) && !query.contains(fragment) {
            query += "\n" + fragment
        }
        var json = "{\"query\":" + JSONValue.quoted(query)
        if let name = operationName ?? Self.operationName(of: query) {
            json += ",\"operationName\":" + JSONValue.quoted(name)
        }
        if let variables { json += ",\"variables\":" + variables }
        return Data((json + "}").utf8)
    }

    /// The name of the operation a GraphQL document starts with (`query User($id: ID!) { … }` is `User`),
    /// sent as `operationName` as the REST Client does; nil for an anonymous one (`{ viewer { … } }`).
    static func operationName(of query: String) -> String? {
        let code = query.split(separator: "\n").drop { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: "\n")
        let words = code.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        guard words.count > 1, ["query", "mutation", "subscription"].contains(String(words[0])) else { return nil }
        let name = words[1].prefix { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }
        guard let first = name.first, !first.isNumber else { return nil }
        return String(name)
    }

    /// A form body written one `&field=value` (or `field=value&`) per line: the lines joined without their line
    /// breaks, and the spaces written around `=` and `&` left out (`foo = a & bar = b` is `foo=a&bar=b`, as
    /// httpyac sends it); what a form may not hold raw is then percent-encoded, as the REST Client does
    /// (`John Doe` is `John%20Doe`, a `%` not starting an escape `%25`; `+`, `&`, `=` and escapes stay).
    static func joinedFormBody(_ text: String) -> String {
        formEncoded(joinedFields(text))
    }

    /// The bytes of `text` a URL may carry as they are (RFC 3986's unreserved and reserved characters, `%`
    /// starting an escape) kept, every other byte written `%XX`.
    static func formEncoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result = ""
        result.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && bytes[index + 1].isHexDigit && bytes[index + 2].isHexDigit
            if isEscape || (byte != UInt8(ascii: "%") && Self.formSafe.contains(byte)) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    private static let formSafe = Set(Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!#$&'()*+,/:;=?@[]|^\\".utf8))

    private static func joinedFields(_ text: String) -> String {
        joinedFormLines(text).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "&", omittingEmptySubsequences: false).map { field in
                guard let equals = field.firstIndex(of: "=") else { return field.trimmingCharacters(in: .whitespaces) }
                return field[..<equals].trimmingCharacters(in: .whitespaces) + "="
                    + field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }.joined(separator: "&")
        }.joined(separator: "\n")
    }

    private static func joinedFormLines(_ text: String) -> String {
        var result = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let content = line.hasSuffix("\r") ? line.dropLast() : line
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            // `&name=value` continues the line above, as does a line after one ending in `&` (kulala.nvim).
            if result.isEmpty || trimmed.hasPrefix("&") || result.hasSuffix("&") {
                result += trimmed
            } else {
                result += "\n" + trimmed
            }
        }
        return result
    }

    /// Whether the headers say the body is `application/x-www-form-urlencoded`.
    static func isFormBody(_ headers: HTTPHeaders) -> Bool {
        headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
    }

    /// Whether the body is newline-delimited JSON (`application/x-ndjson`), whose last line ends in a line
    /// break as every other does: the REST Client adds the one the file's trimmed body lacks, and readers
    /// such as Elasticsearch's bulk API refuse a body without it.
    static func isNewlineDelimitedJSON(_ headers: HTTPHeaders) -> Bool {
        headers["Content-Type"]?.lowercased().hasPrefix("application/x-ndjson") ?? false
    }

    /// `Authorization: Basic user:password` and `Basic user password` (written in clear, as the REST
    /// Client and JetBrains allow) become the base64 form; an already encoded value is left alone.
    static func basicCredentials(_ value: String) -> String? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, words[0].caseInsensitiveCompare("Basic") == .orderedSame else { return nil }
        if words.count == 3 { return "Basic " + Data("\(words[1]):\(words[2])".utf8).base64EncodedString() }
        guard words.count == 2, words[1].contains(":") else { return nil }
        return "Basic " + Data(words[1].utf8).base64EncodedString()
    }

    /// kulala.nvim's `Authorization: NTLM user password` (or `user:password`) and `Authorization: Negotiate`:
    /// the credentials for libcurl to run the handshake with (Negotiate takes the user's Kerberos ticket, so
    /// it has none); nil for any other value, `NTLM <token>` included (a message of a handshake under way).
    static func handshakeCredentials(_ value: String) -> HTTPAuthentication? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let scheme = words.first else { return nil }
        if scheme.caseInsensitiveCompare("Negotiate") == .orderedSame && words.count == 1 {
            return HTTPAuthentication(scheme: .negotiate, user: "", password: "")
        }
        guard scheme.caseInsensitiveCompare("NTLM") == .orderedSame else { return nil }
        if words.count == 3 { return HTTPAuthentication(scheme: .ntlm, user: words[1], password: words[2]) }
        if words.count == 2, let colon = words[1].firstIndex(of: ":") {
            return HTTPAuthentication(scheme: .ntlm, user: String(words[1][..<colon]),
                                      password: String(words[1][words[1].index(after: colon)...]))
        }
        return nil
    }

    /// `Authorization: Digest user password`: the credentials for the transport to answer the challenge.
    static func digestCredentials(_ value: String) -> HTTPAuthentication? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 3, words[0].caseInsensitiveCompare("Digest") == .orderedSame,
              !words[1].contains("="), !words[2].contains("=") else { return nil }
        return HTTPAuthentication(scheme: .digest, user: String(words[1]), password: String(words[2]))
    }

    private static let defaultHeadersPrefix = EnvironmentSet.kulalaDefaultHeaders + "."

    /// kulala.nvim's `$kulalaDefaultHeaders` of the environment (`$kulalaShared`'s, then the selected one's):
    /// each header the request does not set itself.
    func addDefaultHeaders(to headers: inout HTTPHeaders, interpolator: inout Interpolator) throws(CollectionError) {
        let prefix = Self.defaultHeadersPrefix
        // Without a filtered copy of the environment: most have no default headers, and this runs per request.
        var defaults: [(key: String, value: VariableValue)] = []
        for (key, value) in context.environment.values
        where key.hasPrefix(prefix) && !key.dropFirst(prefix.count).contains(".") {
            defaults.append((key, value))
        }
        guard !defaults.isEmpty else { return }
        for (key, value) in defaults.sorted(by: { $0.key < $1.key }) {
            let name = String(key.dropFirst(prefix.count))
            guard !name.isEmpty, !headers.contains(name) else { continue }
            headers.add(name, try interpolator.expand(value.value))
        }
    }

    /// kulala.nvim's (deprecated) `# @graphql` tag.
    static let graphQLTag = "graphql"

    /// An httpyac GraphQL request written as an ordinary one: a body starting with `query` or `mutation`, and a
    /// JSON Content-Type or none (or any body under kulala's `# @graphql`).
    static func isHttpyacGraphQL(_ template: RequestTemplate) -> Bool {
        guard template.kind == .http, case .text(let text) = template.body else { return false }
        // kulala's `# @graphql` marks a GraphQL request whatever its body starts with.
        if template.tags[graphQLTag] != nil { return true }
        if let type = template.headers["Content-Type"]?.lowercased(), !type.contains("json") { return false }
        let first = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if gqlImportLine(text) != nil { return true }
        return ["query", "mutation"].contains { keyword in
            guard first.hasPrefix(keyword) else { return false }
            let next = first.dropFirst(keyword.count).first
            return next == nil || next == " " || next == "{" || next == "(" || next == "\n"
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

import CourierHTTP
import CourierMessage

/// Reading rules that follow what the JetBrains HTTP Client and the VS Code REST Client do with files
/// written for them, beyond the core grammar.
extension HTTPFileParser {
    // MARK: Request kinds, as files spell them

    /// The request-line word of a WebSocket request: `WEBSOCKET ws://…`.
    static let webSocketMethod = "WEBSOCKET"
    /// JetBrains' request-line word for a GraphQL request: `GRAPHQL http://…`, sent as POST.
    static let graphQLMethod = "GRAPHQL"
    /// JetBrains' request-line word for a gRPC call: `GRPC host:port/package.Service/Method`.
    static let gRPCMethod = "GRPC"
    /// VS Code's header marking a GraphQL request (`X-REQUEST-TYPE: GraphQL`); kept in the file, never sent.
    static let graphQLRequestTypeHeader = "X-REQUEST-TYPE"

    /// The kind of a request from its request-line word and headers.
    static func kind(method: String, headers: HTTPHeaders) -> RequestTemplate.Kind {
        // httpyac and kulala.nvim write WebSocket requests as `WS url` (httpyac also `WSS`).
        if method == webSocketMethod || method == "WS" || method == "WSS" { return .websocket }
        if method == graphQLMethod { return .graphql }
        if method == gRPCMethod { return .grpc }
        let type = headers[graphQLRequestTypeHeader]?.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "graphql" ? .graphql : .http
    }

    /// The HTTP method a request of `kind` goes out with: a WebSocket upgrade is a GET, `GRAPHQL` a POST,
    /// anything else as written.
    static func method(of kind: RequestTemplate.Kind, written: String) -> HTTPMethod {
        switch (kind, written) {
        case (.websocket, _): .get
        case (.grpc, _): .post
        case (.graphql, graphQLMethod): .post
        default: HTTPMethod(written)
        }
    }

    /// The word a request line starts with for `request`: its kind's word where the kind has one (a GraphQL
    /// request marked by the VS Code header keeps its method), else the HTTP method.
    static func requestLineMethod(_ request: RequestTemplate) -> String {
        switch request.kind {
        case .websocket: webSocketMethod
        case .grpc: gRPCMethod
        case .graphql where request.headers[graphQLRequestTypeHeader] == nil: graphQLMethod
        case .graphql, .http: request.method.rawValue
        }
    }

    /// `# @name x` written on the line(s) just above a `###` separator names the request below it, as
    /// those tools read it; only blank lines may stand between the tag and the separator.
    func nameAbove(separator: Int) -> String? {
        var index = separator - 1
        while index >= 0, lines[index].isBlank { index -= 1 }
        guard index >= 0, lines[index].firstNonBlankByte.map({ $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "/") })
              == true, let comment = Self.commentBody(lines[index].trimmed),
              let (key, value) = Self.tag(comment), key == "name", !value.isEmpty else { return nil }
        return value
    }

    /// Where the body really ends: comment lines at the end of a block, after a blank line or with no
    /// body text before them, are a footer (notes, or the next request's `# @name`), not body.
    func footerStart(bodyStart: Int, bodyEnd: Int) -> Int {
        var index = bodyEnd
        var sawComment = false
        while index > bodyStart {
            let line = lines[index - 1]
            if line.isBlank { index -= 1; continue }
            guard Self.commentBody(line.trimmed) != nil else { break }
            sawComment = true
            index -= 1
        }
        guard sawComment else { return bodyEnd }
        // Comments directly under body text may be part of it (a shell script, Markdown): keep them.
        if index > bodyStart && !lines[index].isBlank && !lines[index - 1].isBlank { return bodyEnd }
        while index > bodyStart, lines[index - 1].isBlank { index -= 1 }
        return index
    }

    /// `import ./other.http` and `run #name` / `run ./other.http`: the JetBrains client's way of running
    /// requests of other files; the word, or nil for any other line.
    static func compositionDirective(_ trimmed: String) -> String? {
        for word in ["import", "run"] where trimmed.hasPrefix(word + " ") { return word }
        return nil
    }

    /// `# @prompt NAME [description]`.
    static func prompt(_ value: String) -> PromptVariable? {
        let words = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let name = words.first.map(String.init), name.allSatisfy(isVariableNameCharacter) else { return nil }
        let description = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : nil
        return PromptVariable(name: name, description: description?.isEmpty == true ? nil : description)
    }

    // MARK: kulala.nvim's tags

    /// kulala.nvim's `# @secret NAME [description]`: a prompt whose answer is masked.
    static let secretPromptTag = "secret"

    /// kulala.nvim's `# @curl-FLAG [value]` tags, as the request option each one is (nil: nothing to do,
    /// Courier already behaves so); a flag that would change what is sent and that Courier cannot honour is
    /// refused with the reason.
    static func curlFlagTag(_ key: String, _ value: String) -> Result<(key: String, value: String)?, TagProblem> {
        switch key.dropFirst("curl-".count) {
        case "insecure", "k": return .success((RequestOptions.insecureTag, ""))
        case "connect-timeout": return .success((RequestOptions.connectionTimeoutTag, value))
        case "max-time", "m": return .success((RequestOptions.timeoutTag, value))
        // curl retries N times after the first try.
        case "retry" where Int(value).map { $0 >= 0 && $0 < 100 } == true:
            return .success((RequestOptions.maxAttemptsTag, String((Int(value) ?? 0) + 1)))
        // The body is a form: sent as one, percent-encoded (kulala's documentation names this flag so).
        case "data-urlencode": return .success((formBodyTag, ""))
        // Redirects are followed and compressed answers decoded already; buffering (kulala's documentation
        // also spells it `non-buffer`) and curl's own output do not change the bytes.
        case "location", "L", "compressed", "no-buffer", "non-buffer", "N", "silent", "s", "show-error", "S",
             "verbose", "v", "globoff", "g":
            return .success(nil)
        case let flag:
            return .failure(TagProblem("kulala's '# @curl-\(flag)' is not supported; Courier honours "
                + "@curl-insecure, @curl-connect-timeout, @curl-max-time, @curl-retry, @curl-data-urlencode, "
                + "@curl-location and @curl-compressed"))
        }
    }

    /// kulala's `# @curl-data-urlencode`, kept as this tag: the body goes as a form.
    static let formBodyTag = "curl-data-urlencode"

    /// Tags that ask for something Courier does not do and that would change the exchange: refused at their
    /// line rather than ignored.
    static func unsupportedTag(_ key: String, _ value: String) -> String? {
        switch key {
        case "env-stdin-cmd", "env-stdin-cmd-pre", "stdin-cmd", "stdin-cmd-pre":
            "kulala's '# @\(key)' runs a command; Courier runs no commands from a file: "
                + "read a value with a response handler (client.global.set)"
        case kulalaJSONKeyTag where value.split(separator: " ").count < 2,
             kulalaHeaderKeyTag where value.split(separator: " ").count < 2:
            "kulala's '# @\(key)' needs a variable name and what to read: '# @\(key) NAME "
                + (key == kulalaJSONKeyTag ? "path.in.body'" : "Header-Name'")
        case "use-os-credentials":
            "'# @use-os-credentials' signs in with the operating system's (Windows) credentials, which Courier "
                + "cannot; the request is not sent"
        case "proxy":
            "httpyac's '# @proxy' is not supported: Courier sends requests directly, or through the proxy the "
                + "process environment names (http_proxy, https_proxy)"
        default: nil
        }
    }

    /// A warning at the line `index`: the request still loads and is sent.
    mutating func warn(_ index: Int, _ message: String) {
        diagnostics.append(Diagnostic(file: path, line: fileLine(index), message: message, severity: .warning))
    }

    /// httpyac's tags that change how a request runs in ways Courier does not follow, though what is sent stays
    /// right: each is sent anyway, with a warning at its line saying what is not done. (Tags about how httpyac
    /// shows a response, `@title`, `@save`, `@openWith`, `@verbose`, … change nothing and say nothing.)
    static func unhonouredTag(_ key: String) -> String? {
        switch key.lowercased() {
        case "ratelimit":
            "httpyac's '# @\(key)' is not followed: Courier sends without throttling (space requests with "
                + "# @sleep MS)"
        case "keepstreaming":
            "httpyac's '# @keepStreaming' is not followed: a stream ends as Courier's requests end"
        case "noclientcert", "no-client-cert":
            "httpyac's '# @\(key)' is not followed: a client certificate the environment configures is still sent"
        default: nil
        }
    }

    /// kulala.nvim's `# @env-json-key NAME path.in.body` and `# @env-header-key NAME Header`.
    static let kulalaJSONKeyTag = "env-json-key"
    static let kulalaHeaderKeyTag = "env-header-key"

    /// What kulala's `# @env-json-key` and `# @env-header-key` set: NAME from the response, for the requests
    /// after it, as httpyac's `@name = {{response.…}}` lines after a request are.
    static func kulalaResponseVariables(_ tags: [String: String], line: Int) -> [VariableDefinition] {
        [(kulalaJSONKeyTag, "response.parsedBody."), (kulalaHeaderKeyTag, "response.headers.")].compactMap {
            let words = tags[$0.0]?.split(separator: " ", maxSplits: 1).map { $0.trimmingBlanks } ?? []
            guard words.count == 2 else { return nil }
            return VariableDefinition(name: words[0], value: "{{" + $0.1 + words[1] + "}}", line: line)
        }
    }

    /// httpyac camel-cases tags (`# @no-redirect` and `# @noRedirect` are one tag) and has its own names for
    /// some: each as the tag Courier reads.
    static let tagAliases: [String: String] = [
        "noRedirect": RequestOptions.noRedirectTag, "noCookieJar": "no-cookie-jar",
        "noLog": RequestOptions.noLogTag, "noRejectUnauthorized": RequestOptions.insecureTag,
        "no-reject-unauthorized": RequestOptions.insecureTag, "connectionTimeout": RequestOptions.connectionTimeoutTag,
        "inject-variables": injectVariablesTag,
        // kulala.nvim's `# @delay MS` waits before sending, as httpyac's `# @sleep MS`.
        "delay": "sleep",
    ]

    /// httpyac's `# @injectVariables`: a `< ./file` body has its variables substituted, as `<@ ./file`.
    static let injectVariablesTag = "injectVariables"
}

/// Why a tag cannot be honoured.
struct TagProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

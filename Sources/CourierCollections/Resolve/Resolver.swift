import CourierHTTP
import CourierMessage
import Foundation

/// A request ready to send, with the secret values that went into it so that printers can hide them.
public struct ResolvedRequest: Sendable {
    /// The fields, behind one reference (`CopyOnWrite`) and read in place: a resolved request goes into the
    /// outcome, to the observer, the transport, the handlers and the response store, and each copy retained
    /// every field of the template and the request.
    private struct Fields: Sendable {
        var template: RequestTemplate
        var request: HTTPRequest
        var messages: [WebSocketMessage]
        var secrets: Set<String>
    }

    private var fields: CopyOnWrite<Fields>

    init(template: RequestTemplate, request: HTTPRequest, messages: [WebSocketMessage], secrets: Set<String>) {
        fields = CopyOnWrite(Fields(template: template, request: request, messages: messages, secrets: secrets))
    }

    public var template: RequestTemplate {
        _read { yield fields.value.template }
        _modify { yield &fields.value.template }
    }
    public var request: HTTPRequest {
        _read { yield fields.value.request }
        _modify { yield &fields.value.request }
    }
    /// WebSocket messages with variables substituted.
    public var messages: [WebSocketMessage] {
        _read { yield fields.value.messages }
        _modify { yield &fields.value.messages }
    }
    /// Values from private environments and the process environment used by this request, and the secret
    /// globals scripts had set (`VariableContext.secretGlobalValues`).
    public var secrets: Set<String> {
        _read { yield fields.value.secrets }
        _modify { yield &fields.value.secrets }
    }

    /// The request's name, or its method and URL.
    public var displayName: String { template.displayName }

    /// What every writer masks for this request: `secrets` and every credential the request sends
    /// (`HTTPRequest.secretValues`: credential headers, URL user info and its Basic form, `access_token=`),
    /// read from the request as it finally goes out, after its pre-request scripts.
    public var secretSet: Set<String> { secrets.union(request.secretValues) }
}

/// Turns a template into an `HTTPRequest`: variables substituted, URL built with URLComponents, body
/// files read relative to the `.http` file, tags such as `@timeout` applied.
public struct Resolver: Sendable {
    /// Tags that map to request options (read by `RequestOptions`).
    public static let timeoutTag = RequestOptions.timeoutTag
    public static let noRedirectTag = RequestOptions.noRedirectTag
    public static let insecureTag = RequestOptions.insecureTag
    public static let maxAttemptsTag = RequestOptions.maxAttemptsTag
    /// Sends no stored cookies and keeps none of the response's.
    public static let noCookieJarTag = "no-cookie-jar"
    public static let allowInsecureRedirectTag = "allow-insecure-redirect"

    public var file: HTTPFile
    /// The folder `< ./file` bodies are read from.
    public var baseFolder: URL
    public var context: VariableContext

    /// A resolver for the requests of `file`, reading body files from `baseFolder`.
    public init(file: HTTPFile, baseFolder: URL, context: VariableContext) {
        self.file = file
        self.baseFolder = baseFolder
        self.context = context
    }

    /// Resolves one request of `file`.
    public func resolve(_ template: RequestTemplate) throws(CollectionError) -> ResolvedRequest {
        if let run = template.runs.first {
            let message = "'\(run.text)' runs other requests and has no request of its own to build"
            throw .syntax(Diagnostic(file: file.path, line: run.line, message: message))
        }
        // A prompt with a default (httpyac's `$value:`) takes it when nobody answered.
        for prompt in template.prompts where context.overrides[prompt.name] == nil && prompt.defaultValue == nil {
            throw .promptNotAnswered(name: prompt.name, request: template.displayName, description: prompt.description)
        }
        var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                        file: file.fileVariables, context: context, folder: baseFolder,
                                        elsewhere: file.definitionElsewhere(than: template))
        interpolator.scriptTimeLimit = ScriptRunner.timeLimit(for: template)
        let urlText = template.kind == .grpc ? Self.gRPCURLText(template.url) : Self.absoluteURLText(template)
        var pieces = try interpolator.pieces(urlText)
        if urlText.hasPrefix("/") { pieces = try hostPieces(for: template, interpolator: &interpolator) + pieces }
        if template.tags[Self.noAutoEncodingTag] != nil { pieces = pieces.map { .literal($0.text) } }
        guard let url = URLBuilder.build(pieces) else {
            throw .badURL(url: pieces.map(\.text).joined(), request: template.displayName)
        }
        // httpyac sends a `query`/`mutation` body as GraphQL whatever the request line says (a JSON or no
        // Content-Type: a server taking `application/graphql` gets the text as written).
        let isGraphQL = template.kind == .graphql || Self.isHttpyacGraphQL(template)
        var headers = HTTPHeaders()
        let typeHeader = HTTPFileParser.graphQLRequestTypeHeader
        for field in template.headers {
            if isGraphQL && field.name.caseInsensitiveCompare(typeHeader) == .orderedSame { continue }
            headers.add(try interpolator.expand(field.name), try interpolator.expand(field.value))
        }
        try addHeaderSpreads(of: template, to: &headers, interpolator: &interpolator)
        try addDefaultHeaders(to: &headers, interpolator: &interpolator)
        if template.tags[HTTPFileParser.formBodyTag] != nil, !headers.contains("Content-Type") {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        }
        // kulala's `Host: http://example.com:8080` gave the URL its scheme; the header names the authority only.
        if let host = headers["Host"], let scheme = host.range(of: "://") {
            headers["Host"] = String(host[scheme.upperBound...].prefix { $0 != "/" })
        }
        var method = template.method
        var body: RequestBody
        if isGraphQL, case .text(let text) = template.body {
            if let imported = try graphQLImport(text, template: template, interpolator: &interpolator) {
                body = .data(imported)
            } else {
                body = .data(try Self.graphQLBody(try interpolator.expand(text), request: template.displayName,
                                                  fragments: file.graphQLFragments))
            }
            if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
            method = .post
        } else {
            body = try resolveBody(template, headers: headers, interpolator: &interpolator)
        }
        var messages = template.messages
        for index in messages.indices { messages[index].text = try interpolator.expand(messages[index].text) }

        var request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        if template.url == Self.asteriskTarget { request.requestTarget = Self.asteriskTarget }
        request.oauth2 = interpolator.oauth2
        template.options.apply(to: &request)
        applyHttpyacRequestVariables(to: &request, template: template, interpolator: &interpolator)
        // Secret globals an earlier script set are masked in this request's output even where it does not
        // use them: a server may echo them anyway.
        var secrets = interpolator.secrets.union(context.secretGlobalValues)
        if let passphrase = try context.environment.tls.apply(to: &request, passphrase: context.certificatePassphrase,
                                                              replacement: context.clientCertificate,
                                                              requestName: template.displayName) {
            secrets.insert(passphrase)
        }
        secrets.formUnion(try applyClientCertHeader(to: &request, template: template))
        if let authorization = request.headers["Authorization"] {
            if let signIn = try Self.httpyacSignIn(authorization, template: template, context: context,
                                                   interpolator: &interpolator) {
                switch signIn {
                case .oauth2(let configuration):
                    request.headers["Authorization"] = "Bearer " + OAuth2Placeholder.text(for: configuration.id,
                                                                                          kind: .accessToken)
                    request.oauth2.append(configuration)
                    secrets.formUnion(configuration.secrets)
                case .awsSigV4(let configuration):
                    request.headers["Authorization"] = nil
                    request.awsSigV4 = try Self.locatedSigV4(configuration, url: request.url, request: template.displayName)
                    secrets.formUnion(configuration.secrets)
                }
            } else if let oauth1 = try OAuth1Authorization.configuration(authorization,
                                                                          request: template.displayName) {
                request.headers["Authorization"] = nil
                request.oauth1 = oauth1
                secrets.formUnion(oauth1.secrets)
            } else if let basic = Self.basicCredentials(authorization) {
                request.headers["Authorization"] = basic
            } else if let handshake = Self.digestCredentials(authorization) ?? Self.handshakeCredentials(authorization) {
                request.headers["Authorization"] = nil
                request.authentication = handshake
                if !handshake.password.isEmpty { secrets.insert(handshake.password) }
            }
        }
        if template.tags[Self.allowInsecureRedirectTag] != nil { request.allowInsecureRedirect = true }
        // Saved requests share their environment's cookie jar (a login's session reaches the next request).
        if template.tags[Self.noCookieJarTag] == nil {
            request.cookieJar = context.environment.name ?? CookieJarStore.defaultJarName
        }
        // Answers to secret prompts (kulala's `# @secret`) are masked like private values.
        for prompt in template.prompts where prompt.isSecret {
            if let answer = context.overrides[prompt.name], !answer.isEmpty { secrets.insert(answer) }
        }
        request.knownSecrets = secrets
        return ResolvedRequest(template: template, request: request, messages: messages, secrets: secrets)
    }

    private func resolveBody(_ template: RequestTemplate, headers: HTTPHeaders,
                             interpolator: inout Interpolator) throws(CollectionError) -> RequestBody {
        switch template.body {
        case .none:
            return .empty
        case .file(let path, substituteVariables: false):
            // Sent as it is: streamed from disk when the request goes out, never held in memory.
            let expanded = try interpolator.expand(path)
            let file = try permitted(path, expanded: expanded, request: template, streamed: true)
            return Self.fileSize(file) == 0 ? .empty : .file(file)
        case .file, .encodedFile:
            return .data(try fileBody(template.body, request: template, interpolator: &interpolator))
        case .text(let text):
            var expanded = try interpolator.expand(text)
            if Self.isFormBody(headers) { expanded = Self.joinedFormBody(expanded) }
            if Self.isNewlineDelimitedJSON(headers), !expanded.hasSuffix("\n") { expanded += "\n" }
            let isMultipart = headers["Content-Type"]?.lowercased().hasPrefix("multipart/") ?? false
            return isMultipart ? try multipart(expanded, request: template, interpolator: &interpolator)
                               : .data(Data(expanded.utf8))
        }
    }

    /// Multipart bodies use CRLF line endings (RFC 2046) and embed `< ./file` lines as the file's bytes,
    /// streamed from disk when the request goes out, and `<@ ./file` lines as its text with variables
    /// substituted (`<@latin1 ./file` read in that encoding).
    private func multipart(_ text: String, request: RequestTemplate,
                           interpolator: inout Interpolator) throws(CollectionError) -> RequestBody {
        var parts: [RequestBodyPart] = []
        var data = Data()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let content = line.hasSuffix("\r") ? line.dropLast() : line
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if case .file(let path, substituteVariables: false)? = BodyTemplate.fileReference(trimmed) {
                let expanded = try interpolator.expand(path)
                let file = try permitted(path, expanded: expanded, request: request, streamed: true)
                if !data.isEmpty { parts.append(.data(data)) }
                parts.append(.file(file))
                data = Data()
            } else if let file = BodyTemplate.fileReference(trimmed) {
                data.append(try fileBody(file, request: request, interpolator: &interpolator))
            } else {
                data.append(Data(content.utf8))
            }
            if index < lines.count - 1 { data.append(Data("\r\n".utf8)) }
        }
        guard !parts.isEmpty else { return .data(data) }
        if !data.isEmpty { parts.append(.data(data)) }
        return .parts(parts)
    }

    /// The bytes a `< ./file`, `<@ ./file` or `<@ENCODING ./file` line stands for. The path may hold variables
    /// (`< ./{{fixture}}.json`); `<@` substitutes the file's own; an encoding reads the file in it and sends
    /// the text as UTF-8, as the REST Client does.
    func fileBody(_ file: BodyTemplate, request: RequestTemplate,
                          interpolator: inout Interpolator) throws(CollectionError) -> Data {
        switch file {
        case .none, .text:
            return Data()
        case .file(let path, let substitute):
            let data = try read(path, expanded: try interpolator.expand(path), request: request)
            guard substitute else { return data }
            return Data(try interpolator.expand(String(decoding: data, as: UTF8.self)).utf8)
        case .encodedFile(let path, let name):
            let expandedPath = try interpolator.expand(path)
            let data = try read(path, expanded: expandedPath, request: request)
            guard let encoding = BodyEncoding.encoding(named: name), let text = String(data: data, encoding: encoding)
            else {
                throw .unreadable(path: expandedPath, reason: "not valid \(name) text (from '<@\(name)')")
            }
            return Data(try interpolator.expand(text).utf8)
        }
    }

    /// The bytes of a file the request reads into memory, once the collection's file policy allows it.
    private func read(_ written: String, expanded: String,
                      request: RequestTemplate) throws(CollectionError) -> Data {
        let file = try permitted(written, expanded: expanded, request: request, streamed: false)
        do { return try CollectionFileAccess.contents(of: file) } catch {
            throw .bodyFileUnreadable(path: expanded, request: request.displayName)
        }
    }

    /// The file `expanded` (`written` in the request, before variables) names, when the collection's file
    /// policy (`context.fileAccess`) lets the request read it; else why not, at the line that names it.
    func permitted(_ written: String, expanded: String, request: RequestTemplate,
                           streamed: Bool) throws(CollectionError) -> URL {
        let line = request.line(mentioning: written) ?? request.line(mentioning: expanded)
        return try context.fileAccess.read(expanded, from: baseFolder, streamed: streamed)
            .file(.read, path: expanded, request: request.displayName, line: line)
    }

    private static func fileSize(_ url: URL) -> Int64? {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int64(status.st_size) : nil
    }
}

import CourierHTTP
import Foundation

/// A request ready to send, with the secret values that went into it so that printers can hide them.
public struct ResolvedRequest: Sendable {
    public var template: RequestTemplate
    public var request: HTTPRequest
    /// WebSocket messages with variables substituted.
    public var messages: [WebSocketMessage]
    /// Values from private environments and the process environment used by this request, and the secret
    /// globals scripts had set (`VariableContext.secretGlobalValues`).
    public var secrets: Set<String>

    /// The request's name, or its method and URL.
    public var displayName: String { template.displayName }
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
        let urlText = Self.absoluteURLText(template)
        var pieces = try interpolator.pieces(urlText)
        if urlText.hasPrefix("/") { pieces = try hostPieces(for: template, interpolator: &interpolator) + pieces }
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
        try addDefaultHeaders(to: &headers, interpolator: &interpolator)
        var method = template.method
        var body: RequestBody
        if isGraphQL, case .text(let text) = template.body {
            body = .data(try Self.graphQLBody(try interpolator.expand(text), request: template.displayName,
                                              fragments: file.graphQLFragments))
            if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
            method = .post
        } else {
            body = try resolveBody(template, headers: headers, interpolator: &interpolator)
        }
        var messages = template.messages
        for index in messages.indices { messages[index].text = try interpolator.expand(messages[index].text) }

        var request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        template.options.apply(to: &request)
        // Secret globals an earlier script set are masked in this request's output even where it does not
        // use them: a server may echo them anyway.
        var secrets = interpolator.secrets.union(context.secretGlobalValues)
        if let passphrase = try context.environment.tls.apply(to: &request, passphrase: context.certificatePassphrase,
                                                              replacement: context.clientCertificate,
                                                              requestName: template.displayName) {
            secrets.insert(passphrase)
        }
        if let authorization = request.headers["Authorization"] {
            if let basic = Self.basicCredentials(authorization) {
                request.headers["Authorization"] = basic
            } else if let digest = Self.digestCredentials(authorization) {
                request.headers["Authorization"] = nil
                request.authentication = digest
                secrets.insert(digest.password)
            } else if let scheme = Self.unsupportedAuthorization(authorization) {
                throw .unsupported(request: template.displayName,
                                   reason: "'Authorization: \(scheme) …' (kulala.nvim signs in with \(scheme)) is not "
                                       + "supported; the request is not sent")
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
        case .file, .encodedFile:
            return .data(try fileBody(template.body, request: template, interpolator: &interpolator))
        case .text(let text):
            var expanded = try interpolator.expand(text)
            if Self.isFormBody(headers) { expanded = Self.joinedFormBody(expanded) }
            let isMultipart = headers["Content-Type"]?.lowercased().hasPrefix("multipart/") ?? false
            return .data(isMultipart ? try multipart(expanded, request: template, interpolator: &interpolator)
                                     : Data(expanded.utf8))
        }
    }

    /// Multipart bodies use CRLF line endings (RFC 2046) and embed `< ./file` lines as the file's bytes, and
    /// `<@ ./file` lines as its text with variables substituted (`<@latin1 ./file` read in that encoding).
    private func multipart(_ text: String, request: RequestTemplate,
                           interpolator: inout Interpolator) throws(CollectionError) -> Data {
        var data = Data()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let content = line.hasSuffix("\r") ? line.dropLast() : line
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if let file = BodyTemplate.fileReference(trimmed) {
                data.append(try fileBody(file, request: request, interpolator: &interpolator))
            } else {
                data.append(Data(content.utf8))
            }
            if index < lines.count - 1 { data.append(Data("\r\n".utf8)) }
        }
        return data
    }

    /// The bytes a `< ./file`, `<@ ./file` or `<@ENCODING ./file` line stands for. The path may hold variables
    /// (`< ./{{fixture}}.json`); `<@` substitutes the file's own; an encoding reads the file in it and sends
    /// the text as UTF-8, as the REST Client does.
    private func fileBody(_ file: BodyTemplate, request: RequestTemplate,
                          interpolator: inout Interpolator) throws(CollectionError) -> Data {
        switch file {
        case .none, .text:
            return Data()
        case .file(let path, let substitute):
            let data = try read(try interpolator.expand(path), request: request)
            guard substitute else { return data }
            return Data(try interpolator.expand(String(decoding: data, as: UTF8.self)).utf8)
        case .encodedFile(let path, let name):
            let expandedPath = try interpolator.expand(path)
            let data = try read(expandedPath, request: request)
            guard let encoding = BodyEncoding.encoding(named: name), let text = String(data: data, encoding: encoding)
            else {
                throw .unreadable(path: expandedPath, reason: "not valid \(name) text (from '<@\(name)')")
            }
            return Data(try interpolator.expand(text).utf8)
        }
    }

    private func read(_ path: String, request: RequestTemplate) throws(CollectionError) -> Data {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseFolder.appendingPathComponent(path)
        do { return try Data(contentsOf: url) } catch {
            throw .bodyFileUnreadable(path: path, request: request.displayName)
        }
    }
}

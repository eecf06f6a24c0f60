import CourierHTTP
import Foundation

/// A request ready to send, with the secret values that went into it so that printers can hide them.
public struct ResolvedRequest: Sendable {
    public var template: RequestTemplate
    public var request: HTTPRequest
    /// WebSocket messages with variables substituted.
    public var messages: [WebSocketMessage]
    /// Values from private environments and the process environment used by this request.
    public var secrets: Set<String>

    /// The request's name, or its method and URL.
    public var displayName: String { template.displayName }
}

/// Turns a template into an `HTTPRequest`: variables substituted, URL built with URLComponents, body
/// files read relative to the `.http` file, tags such as `@timeout` applied.
public struct Resolver: Sendable {
    /// Tags that map to request options.
    public static let timeoutTag = "timeout"
    public static let noRedirectTag = "no-redirect"
    public static let insecureTag = "insecure"
    public static let allowInsecureRedirectTag = "allow-insecure-redirect"
    public static let maxAttemptsTag = "max-attempts"

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
        var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                        file: file.fileVariables, context: context)
        let pieces = try interpolator.pieces(template.url)
        guard let url = URLBuilder.build(pieces) else {
            throw .badURL(url: pieces.map(\.text).joined(), request: template.displayName)
        }
        var headers = HTTPHeaders()
        for field in template.headers {
            headers.add(try interpolator.expand(field.name), try interpolator.expand(field.value))
        }
        let body = try resolveBody(template, headers: headers, interpolator: &interpolator)
        var messages = template.messages
        for index in messages.indices { messages[index].text = try interpolator.expand(messages[index].text) }

        var request = HTTPRequest(method: template.method, url: url, headers: headers, body: body)
        if let seconds = template.tags[Self.timeoutTag].flatMap({ Double($0) }), seconds > 0 {
            request.timeout = .milliseconds(Int64(seconds * 1000))
        }
        if template.tags[Self.noRedirectTag] != nil { request.followRedirects = false }
        if template.tags[Self.insecureTag] != nil { request.insecure = true }
        if template.tags[Self.allowInsecureRedirectTag] != nil {
            request.allowInsecureRedirect = true
        }
        if let attempts = template.tags[Self.maxAttemptsTag].flatMap({ Int($0) }), attempts > 0 {
            request.maxAttempts = attempts
        }
        if let authorization = request.headers["Authorization"], let basic = Self.basicCredentials(authorization) {
            request.headers["Authorization"] = basic
        }
        request.knownSecrets = interpolator.secrets
        return ResolvedRequest(template: template, request: request, messages: messages,
                               secrets: interpolator.secrets)
    }

    /// `Authorization: Basic user password` (two words, as JetBrains writes it) becomes the encoded form.
    static func basicCredentials(_ value: String) -> String? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 3, words[0].caseInsensitiveCompare("Basic") == .orderedSame else { return nil }
        return "Basic " + Data("\(words[1]):\(words[2])".utf8).base64EncodedString()
    }

    private func resolveBody(_ template: RequestTemplate, headers: HTTPHeaders,
                             interpolator: inout Interpolator) throws(CollectionError) -> RequestBody {
        switch template.body {
        case .none:
            return .empty
        case .file(let path, let substitute):
            let data = try read(path, request: template)
            guard substitute else { return .data(data) }
            return .data(Data(try interpolator.expand(String(decoding: data, as: UTF8.self)).utf8))
        case .text(let text):
            let expanded = try interpolator.expand(text)
            let isMultipart = headers["Content-Type"]?.lowercased().hasPrefix("multipart/") ?? false
            return .data(isMultipart ? try multipart(expanded, request: template) : Data(expanded.utf8))
        }
    }

    /// Multipart bodies use CRLF line endings (RFC 2046) and embed `< ./file` lines as the file's bytes.
    private func multipart(_ text: String, request: RequestTemplate) throws(CollectionError) -> Data {
        var data = Data()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let content = line.hasSuffix("\r") ? line.dropLast() : line
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("< ") {
                data.append(try read(trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces), request: request))
            } else {
                data.append(Data(content.utf8))
            }
            if index < lines.count - 1 { data.append(Data("\r\n".utf8)) }
        }
        return data
    }

    private func read(_ path: String, request: RequestTemplate) throws(CollectionError) -> Data {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseFolder.appendingPathComponent(path)
        do { return try Data(contentsOf: url) } catch {
            throw .bodyFileUnreadable(path: path, request: request.displayName)
        }
    }
}

import CourierHTTP
import Foundation

/// A resolved request as the code generators see it: method, URL in parts, headers and body, with every
/// secret taken out into `secrets` (unless the user asked to see them). Built once, by
/// `CodeRequest.Builder`; one generator per language renders it.
public struct CodeRequest: Sendable, Hashable {
    /// A header as the code sets it.
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: CodeText
    }

    /// What the request sends.
    public enum Body: Sendable, Hashable {
        case none
        /// Text (JSON, a form, multipart parts, anything UTF-8) or bytes, exactly as Courier sends them.
        case content(CodeText)
        /// A `< ./file` body: the code reads the file (this absolute path) when it runs.
        case file(path: String)
    }

    /// Headers a client sets itself and no export writes.
    public static let implicitHeaders: Set<String> = ["content-length", "host"]

    /// The request's `# @name` (or its method and URL), for comments and function names.
    public var name: String
    /// Whether `name` is the request's own `# @name` (function names are made only from those).
    public var isNamed: Bool
    /// The collection file's name, for comments.
    public var fileName: String?
    public var method: String
    public var url: CodeURL
    public var headers: [Header]
    public var body: Body
    /// The secrets the texts above refer to by index.
    public var secrets: [CodeSecret]
    /// What the code does differently from Courier (Digest authentication, a client certificate…), said in
    /// a comment at its top.
    public var notes: [String]

    /// The Content-Type header's value when it has no secret.
    public var contentType: String? {
        headers.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value.plain
    }

    /// Whether the request has a header named `name` (any case).
    public func hasHeader(_ name: String) -> Bool {
        headers.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}

/// A URL in the parts code builds it from, each percent-encoded as Courier sends it.
public struct CodeURL: Sendable, Hashable {
    /// One `name=value` of the query; `value` is nil for a bare `name`.
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: CodeText?
    }

    public var scheme: String
    public var user: CodeText?
    public var password: CodeText?
    public var host: CodeText
    public var port: Int?
    public var path: CodeText
    public var query: [QueryItem]
    /// Whether the URL has a `?` (an empty query is kept as Courier sends it).
    public var hasQuery: Bool

    /// The whole URL as one text, for languages that take a URL string. The fragment is left out: it is
    /// never sent.
    public var whole: CodeText {
        var pieces: [CodeText.Piece] = [.text(scheme + "://")]
        if let user {
            pieces += user.pieces
            if let password { pieces += [.text(":")] + password.pieces }
            pieces.append(.text("@"))
        }
        pieces += host.pieces
        if let port { pieces.append(.text(":\(port)")) }
        pieces += path.pieces
        if hasQuery {
            pieces.append(.text("?"))
            for (position, item) in query.enumerated() {
                pieces.append(.text((position > 0 ? "&" : "") + item.name))
                if let value = item.value { pieces += [.text("=")] + value.pieces }
            }
        }
        return CodeText.joined(pieces)
    }
}

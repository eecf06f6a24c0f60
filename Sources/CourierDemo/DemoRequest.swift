import Foundation

/// One parsed HTTP/1.1 request as the demo server received it.
public struct DemoRequest: Sendable {
    /// The method token as sent (`GET`, `POST`, …).
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// Query items in order.
    public var query: [(name: String, value: String)]
    /// Header fields in order, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body, de-chunked when it came chunked.
    public var body: Data
    /// The protocol version from the request line, `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The request target exactly as sent (path and query, still percent-encoded).
    public var target: String

    /// A request value (the parser builds these; tests and WebSocket handlers may too).
    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: Data = Data(),
                version: String = "HTTP/1.1", target: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.version = version
        self.target = target ?? path
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first value of a query parameter.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// Whether the connection stays open after this request: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let tokens = connectionTokens
        if tokens.contains("close") { return false }
        return version == "HTTP/1.1" || tokens.contains("keep-alive")
    }

    /// Whether the request asks to switch to the WebSocket protocol.
    public var isWebSocketUpgrade: Bool {
        connectionTokens.contains("upgrade")
            && (header("Upgrade")?.lowercased().contains("websocket") ?? false)
    }

    private var connectionTokens: Set<String> {
        let values = headers.filter { $0.name.lowercased() == "connection" }.map(\.value)
        return Set(values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }
}

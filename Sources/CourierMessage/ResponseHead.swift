/// The status line and header fields of one response: what `RequestContext.onHead` hands over when
/// the head of the final response (after redirects and interim 1xx responses) is complete, and what the
/// WebSocket handshake reads off its socket. CourierHTTP parses it (`ResponseHead+Parsing`).
public struct ResponseHead: Sendable, Hashable {
    /// As written on the status line: `HTTP/1.1`, `HTTP/2`.
    public var version: String
    public var status: Int
    public var reason: String
    public var headers: HTTPHeaders

    /// A head with these parts.
    public init(version: String = "", status: Int = 0, reason: String = "", headers: HTTPHeaders = [:]) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
    }
}

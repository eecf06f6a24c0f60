/// The WebSocket pane's slot until the WebSocket component fills it: the connection and its messages.
public struct WebSocketState: Sendable, Hashable {
    public enum Connection: Sendable, Hashable {
        case disconnected
        case connecting(url: String)
        case connected(url: String)
        case closed(code: Int?, reason: String)
    }
    public var connection: Connection = .disconnected
    public var lines: [String] = []
    public init() {}
}

import Foundation

/// Everything that happens on a WebSocket session, in order: state changes and every message.
/// The pane and `courier ws --json` are both built from this stream.
public enum WebSocketEvent: Sendable {
    /// A connection attempt started (1 for the first, then counting reconnects).
    case connecting(url: URL, attempt: Int)
    /// The handshake succeeded; `protocol` is the subprotocol the server chose.
    case connected(url: URL, protocol: String?)
    /// A data message went out or came in.
    case message(WebSocketMessageEvent)
    /// A ping went out.
    case ping(time: Date)
    /// A pong came in; `roundTrip` in seconds when it answered our ping.
    case pong(roundTrip: Double?)
    /// The connection ended.
    case closed(WebSocketCloseInfo)
    /// The session will try again after `delay` seconds.
    case reconnecting(delay: Double, attempt: Int)
    /// A connection attempt failed before it opened (an open connection's failure is in `closed`).
    case error(WebSocketError)
}

/// One data message with its direction, size and time.
public struct WebSocketMessageEvent: Sendable, Hashable {
    /// Which way the message went.
    public enum Direction: String, Sendable, Hashable {
        case incoming = "in"
        case outgoing = "out"
    }

    public var direction: Direction
    public var message: WebSocketMessage
    public var time: Date
    /// Whether this was a subscription message re-sent on (re)connect.
    public var isSubscription: Bool

    public init(direction: Direction, message: WebSocketMessage, time: Date = Date(), isSubscription: Bool = false) {
        self.direction = direction
        self.message = message
        self.time = time
        self.isSubscription = isSubscription
    }

    /// The payload size in bytes.
    public var size: Int { message.size }
}

/// How a connection ended.
public struct WebSocketCloseInfo: Sendable, Hashable {
    /// The code from the close frame, 1005 when it had none, 1006 when there was no close frame.
    public var code: WebSocketCloseCode
    public var reason: String
    /// Whether the user asked for the close (so the session will not reconnect).
    public var byUser: Bool
    /// Whether both close frames were exchanged.
    public var wasClean: Bool
    /// What went wrong, when something did.
    public var error: WebSocketError?

    public init(code: WebSocketCloseCode, reason: String = "", byUser: Bool = false, wasClean: Bool = false,
                error: WebSocketError? = nil) {
        self.code = code
        self.reason = reason
        self.byUser = byUser
        self.wasClean = wasClean
        self.error = error
    }
}

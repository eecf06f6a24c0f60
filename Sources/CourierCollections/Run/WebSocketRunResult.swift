import CourierWebSocket
import Foundation

/// What one `WEBSOCKET` request of a headless run did: the handshake, the messages each way, the close.
/// A plain value: the collections module names the WebSocket client's failure kinds but never opens a socket.
public struct WebSocketRunResult: Sendable, Hashable {
    /// Why an exchange did not succeed: its kind (`handshakeRejected`, `offline`, `timedOut`,
    /// `connectionLost`, `waitForServer`…) and its message.
    public struct Failure: Sendable, Hashable {
        /// What ended the exchange; its description is the stable name `--json` and the text output show.
        public enum Kind: Sendable, Hashable, CustomStringConvertible {
            /// The WebSocket client failed: connecting, the handshake, the protocol, a broken connection,
            /// or a cancel (Ctrl-C).
            case client(WebSocketError.Kind)
            /// The server sent nothing within the quiet limit before a `=== wait-for-server` message.
            case waitForServer
            /// The server closed the connection with a code that is not a normal end.
            case closed

            public var description: String {
                switch self {
                case .client(let kind): kind.rawValue
                case .waitForServer: "waitForServer"
                case .closed: "closed"
                }
            }
        }

        public var kind: Kind
        public var message: String
        public init(kind: Kind, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    /// The URL connected to.
    public var url: URL
    /// 101 after a successful handshake, the server's status when it refused the upgrade, nil when no
    /// answer came.
    public var status: Int?
    /// Data messages sent, in file order.
    public var sent: Int
    /// Data messages received before the connection closed.
    public var received: Int
    /// Seconds from the start of the connection to the end of the close.
    public var seconds: Double
    /// The close code, when the connection opened and then closed.
    public var closeCode: Int?
    public var failure: Failure?

    public init(url: URL, status: Int? = nil, sent: Int = 0, received: Int = 0, seconds: Double = 0,
                closeCode: Int? = nil, failure: Failure? = nil) {
        self.url = url
        self.status = status
        self.sent = sent
        self.received = received
        self.seconds = seconds
        self.closeCode = closeCode
        self.failure = failure
    }

    /// Connected, and nothing went wrong until the close.
    public var succeeded: Bool { status == 101 && failure == nil }
}

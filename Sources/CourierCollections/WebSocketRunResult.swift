import Foundation

/// What one `WEBSOCKET` request of a headless run did: the handshake, the messages each way, the close.
/// A plain value so the collections module stays free of the WebSocket client that produces it.
public struct WebSocketRunResult: Sendable, Hashable {
    /// Why an exchange did not succeed, with the WebSocket client's stable kind name (`handshakeRejected`,
    /// `offline`, `timedOut`, `connectionLost`…) and its message.
    public struct Failure: Sendable, Hashable {
        public var kind: String
        public var message: String
        public init(kind: String, message: String) {
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

import CourierHTTP
import CourierMessage
import Foundation

/// Everything one connection needs: where, with which headers and subprotocols, and the timers.
public struct WebSocketConfiguration: Sendable {
    /// A ws:// or wss:// URL (http:// and https:// are accepted and mean the same).
    public var url: URL
    public var headers: HTTPHeaders
    /// Offered in Sec-WebSocket-Protocol, in order of preference.
    public var protocols: [String]
    /// Skips TLS certificate checks; only when the user asked (`--insecure`).
    public var insecure: Bool
    /// PEM certificates the server is verified against instead of the system's (`--cacert`).
    public var trustedCertificates: URL?
    /// Presented when the server asks for a client certificate (`--cert`, an environment's settings).
    public var clientCertificate: ClientCertificate?
    public var connectTimeout: Double
    /// How long the server may take to answer the upgrade request.
    public var handshakeTimeout: Double
    /// Seconds between keepalive pings; nil sends none.
    public var pingInterval: Double?
    /// How long a keepalive ping may stay unanswered before the connection counts as dead.
    public var pongTimeout: Double
    /// How long to wait for the peer's close frame after sending ours.
    public var closeTimeout: Double
    /// The largest incoming message accepted (close 1009 beyond).
    public var maxMessageSize: Int
    /// Splits outgoing messages into frames of this many bytes; nil sends each message as one frame.
    public var fragmentSize: Int?

    public init(url: URL, headers: HTTPHeaders = HTTPHeaders(), protocols: [String] = [], insecure: Bool = false,
                connectTimeout: Double = 10, handshakeTimeout: Double = 10, pingInterval: Double? = 30,
                pongTimeout: Double = 10, closeTimeout: Double = 5, maxMessageSize: Int = 16 << 20,
                fragmentSize: Int? = nil, trustedCertificates: URL? = nil) {
        self.url = url
        self.trustedCertificates = trustedCertificates
        self.headers = headers
        self.protocols = protocols
        self.insecure = insecure
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        self.closeTimeout = closeTimeout
        self.maxMessageSize = maxMessageSize
        self.fragmentSize = fragmentSize
    }
}

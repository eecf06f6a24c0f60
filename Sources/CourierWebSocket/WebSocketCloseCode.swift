/// A close status code (RFC 6455 section 7.4), with the named codes Courier uses and the rule for
/// which codes may appear on the wire.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// The purpose of the connection was fulfilled.
    public static let normal = WebSocketCloseCode(1000)
    /// The endpoint is going away: the user quit, or the server is shutting down.
    public static let goingAway = WebSocketCloseCode(1001)
    /// The peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// A data type the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// Reported locally when a close frame carried no code; never sent.
    public static let noStatus = WebSocketCloseCode(1005)
    /// Reported locally when the connection dropped without a close frame; never sent.
    public static let abnormal = WebSocketCloseCode(1006)
    /// A text message was not valid UTF-8.
    public static let invalidPayload = WebSocketCloseCode(1007)
    /// A message broke the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// A message was larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// The server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)
    /// The server is restarting; a client may reconnect.
    public static let serviceRestart = WebSocketCloseCode(1012)
    /// The server is overloaded; try again later.
    public static let tryAgainLater = WebSocketCloseCode(1013)

    /// Codes defined by RFC 6455 and the IANA registry that a peer may send in a close frame.
    static let registeredOnWire: Set<UInt16> = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014]

    /// Whether a received close frame may carry this code: registered codes, or the ranges reserved
    /// for libraries (3000–3999) and applications (4000–4999). 1005, 1006 and 1015 are local only.
    public var mayBeSent: Bool {
        WebSocketCloseCode.registeredOnWire.contains(rawValue) || (3000...4999).contains(rawValue)
    }

    public var description: String { String(rawValue) }
}

/// When and how fast a session reconnects: exponential backoff with jitter, capped, and the
/// endings that deserve another try. Policy as data so the rules can be read in one place.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The delay before the first retry, in seconds.
    public var initialDelay: Double
    public var multiplier: Double
    /// No delay is longer than this.
    public var maxDelay: Double
    /// Each delay is spread by up to ± this fraction so that many clients do not return in lockstep.
    public var jitter: Double
    /// Gives up after this many failed attempts in a row; nil retries forever.
    public var maxAttempts: Int?

    public init(initialDelay: Double = 0.5, multiplier: Double = 2, maxDelay: Double = 30, jitter: Double = 0.2,
                maxAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxAttempts = maxAttempts
    }

    /// Half a second doubling up to 30 s, ±20 %, forever.
    public static let standard = ReconnectPolicy()

    /// Close codes from the server after which reconnecting makes sense.
    public static let reconnectCloseCodes: Set<WebSocketCloseCode> = [
        .goingAway,       // the server is shutting down or restarting
        .abnormal,        // the connection dropped without a close frame
        .internalError,   // a server fault that may pass
        .serviceRestart,  // the server said to come back
        .tryAgainLater,   // overloaded for now
        WebSocketCloseCode(1014),  // bad gateway: the proxy's upstream failed
    ]

    /// Handshake statuses that may succeed later (the rest mean the request itself is wrong).
    public static let retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The delay before retry number `attempt` (0-based); `random` in 0…1 drives the jitter.
    public func delay(forAttempt attempt: Int, random: Double = Double.random(in: 0...1)) -> Double {
        let base = min(maxDelay, initialDelay * pow(multiplier, Double(max(0, attempt))))
        let spread = base * jitter * (2 * random - 1)
        return min(maxDelay, max(0, base + spread))
    }

    /// Whether an ending deserves another attempt. A close the user asked for never does.
    public func shouldReconnect(after info: WebSocketCloseInfo) -> Bool {
        if info.byUser { return false }
        if let error = info.error {
            switch error {
            case .connectFailed, .timedOut, .connectionLost, .pongTimeout: return true
            case .handshakeRejected(let status, _, _): return Self.retryableStatuses.contains(status)
            case .badURL, .tls, .handshakeInvalid, .protocolViolation, .notConnected, .cancelled: return false
            }
        }
        return Self.reconnectCloseCodes.contains(info.code)
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(min(exponent, 64))
        while remaining > 0 { result *= base; remaining -= 1 }
        return result
    }
}

import CourierHTTP

/// When a call is tried again, after gRPC's retry policy: only before any response message arrived (a
/// stream that had begun is not replayed), at most `maxAttempts` attempts, exponential backoff with
/// jitter. A connection that could not be made is retried for any method (the server saw nothing);
/// UNAVAILABLE, DEADLINE_EXCEEDED and a lost connection only for idempotent methods.
public struct GRPCRetryPolicy: Sendable {
    public var maxAttempts: Int
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    public var multiplier: Double

    /// Status codes retried for idempotent methods, each because the server may answer next time.
    public static let retryableCodes: Set<GRPCStatus.Code> = [
        .unavailable,       // the server is (briefly) not serving
        .deadlineExceeded,  // the attempt ran out of time, not necessarily the next one
    ]

    /// Three attempts, 0.2 s then 0.4 s apart (with jitter), as gRPC's examples configure.
    public static let standard = GRPCRetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(200),
                                                 maximumBackoff: .seconds(2), multiplier: 2)
    /// One attempt.
    public static let none = GRPCRetryPolicy(maxAttempts: 1, initialBackoff: .zero, maximumBackoff: .zero,
                                             multiplier: 1)

    public init(maxAttempts: Int, initialBackoff: Duration, maximumBackoff: Duration, multiplier: Double) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.multiplier = multiplier
    }

    /// Why the attempt that ended so should be tried again, or nil.
    func retryReason(status: GRPCStatus?, error: GRPCError?, idempotent: Bool) -> String? {
        if let status, Self.retryableCodes.contains(status.code) {
            return idempotent ? status.code.name : nil
        }
        guard case .transport(let failure)? = error else { return nil }
        switch failure {
        // No connection was made, so nothing reached the server; a name that does not resolve will not on retry.
        case .cannotConnect(let connect): return connect.reason == .unresolved ? nil : failure.kind.description
        case .connectionLost, .timedOut: return idempotent ? failure.kind.description : nil
        default: return nil
        }
    }

    /// The wait before attempt `attempt + 1`: full jitter under an exponential cap.
    func backoff(after attempt: Int) -> Duration {
        var cap = initialBackoff
        for _ in 1..<max(1, attempt) { cap = min(maximumBackoff, cap * multiplier) }
        return cap * Double.random(in: 0.5...1.0)
    }
}

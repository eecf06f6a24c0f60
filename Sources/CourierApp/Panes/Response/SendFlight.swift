import CourierBody
import CourierHTTP
import Foundation

/// The send in flight, as the Response pane and the status bar show it: how long it has taken, the attempt
/// out of how many, the wait before the next one and why, and the bytes and rate of the body arriving.
public struct SendFlight: Sendable, Hashable {
    public var generation: Int
    /// The client's id of the request, once the effect runner took the send: its events carry it.
    public var id: RequestID?
    public var started: Date
    public var attempt = 1
    /// The most attempts the retry policy may make of this request.
    public var maxAttempts: Int
    /// When the next attempt starts, while waiting for it, and why it is made.
    public var retryAt: Date?
    public var retryReason: String?
    public var received = 0
    public var expected: Int?
    /// Bytes per second of the body arriving, over the attempt so far.
    public var bytesPerSecond: Double = 0

    public init(generation: Int, started: Date, maxAttempts: Int) {
        self.generation = generation
        self.started = started
        self.maxAttempts = maxAttempts
    }

    /// The attempts the retry policy makes of `draft` at most: its `# @max-attempts`, else three when it may be
    /// repeated safely (an idempotent method, or an Idempotency-Key), else one.
    static func maxAttempts(of draft: RequestDraft) -> Int {
        if let attempts = draft.maxAttempts { return max(1, attempts) }
        let repeatable = HTTPMethod(draft.method).isIdempotent || draft.headers["Idempotency-Key"] != nil
        return repeatable ? RetryPolicy().maxAttempts : 1
    }

    /// Takes one of the client's events about this request.
    mutating func apply(_ event: ClientEvent, now: Date) {
        switch event {
        case .attemptStarted(let id, let attempt, _, _, _, _) where id == self.id:
            self.attempt = attempt
            (retryAt, retryReason) = (nil, nil)
            (received, expected, bytesPerSecond) = (0, nil, 0)
        case .retryScheduled(let id, _, let reason, let delay) where id == self.id:
            retryAt = now.addingTimeInterval(Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            retryReason = reason
            // The failed attempt's body is not what is being waited for.
            (received, expected, bytesPerSecond) = (0, nil, 0)
        default:
            break
        }
    }

    /// Takes what the transport says of the body arriving.
    mutating func apply(_ progress: TransferProgress) {
        received = progress.received
        expected = progress.expected
        let seconds = Double(progress.elapsed.components.seconds) + Double(progress.elapsed.components.attoseconds) / 1e18
        bytesPerSecond = seconds > 0 ? Double(progress.received) / seconds : 0
    }

    /// `1.24 s · attempt 2 of 3`: the time since the send began, and the attempt when there may be more.
    func elapsedText(now: Date) -> String {
        let elapsed = DurationText.format(seconds: max(0, now.timeIntervalSince(started)))
        return maxAttempts > 1 ? "\(elapsed) · attempt \(attempt) of \(maxAttempts)" : elapsed
    }

    /// `attempt 3 of 3 in 1.40 s (503)` while waiting to retry; nil otherwise.
    func retryText(now: Date) -> String? {
        guard let retryAt else { return nil }
        let wait = DurationText.format(seconds: max(0, retryAt.timeIntervalSince(now)))
        return "attempt \(attempt + 1) of \(maxAttempts) in \(wait)" + (retryReason.map { " (\($0))" } ?? "")
    }

    /// `received 12.0 MB of 50.0 MB · 8.0 MB/s` once the body is arriving; nil before.
    var transferText: String? {
        guard received > 0 else { return nil }
        var text = "received \(MediaKind.formatSize(received))"
        if let expected { text += " of \(MediaKind.formatSize(expected))" }
        if bytesPerSecond > 0 { text += " · \(MediaKind.formatSize(Int(bytesPerSecond)))/s" }
        return text
    }
}

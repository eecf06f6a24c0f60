/// Time as the pipeline sees it: a monotonic "now" and a cancellable sleep. Injected so tests of
/// backoff and debounce never wait for real time.
public protocol Sleeper: Sendable {
    /// Monotonic time since an arbitrary origin.
    func now() -> Duration
    /// Sleeps for `duration`; throws when the task is cancelled, at once.
    func sleep(for duration: Duration) async throws
}

/// Real time, from `ContinuousClock`.
public struct SystemSleeper: Sleeper {
    private static let origin = ContinuousClock.now

    public init() {}

    /// Time since the first use of the sleeper in this process.
    public func now() -> Duration { ContinuousClock.now - Self.origin }

    /// Sleeps with `Task.sleep`, which ends early (and throws) on cancellation.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

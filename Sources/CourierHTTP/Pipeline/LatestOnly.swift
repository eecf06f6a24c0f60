import Synchronization

/// Cancel-previous debounce for live requests: each submission cancels the one before it (and its
/// transfer), waits out the debounce, then runs. Every submission has a generation number, and only
/// the newest generation's result is delivered, so a stale response never replaces a newer one.
public final class LatestOnly<Value: Sendable>: Sendable {
    /// What became of one submission.
    public enum Outcome: Sendable {
        /// The newest submission finished; its result.
        case completed(generation: UInt64, Result<Value, APIError>)
        /// A newer submission (or `cancel()`) replaced it; `wasSent` says whether its work had started.
        case superseded(generation: UInt64, wasSent: Bool)

        public var generation: UInt64 {
            switch self {
            case .completed(let generation, _), .superseded(let generation, _): generation
            }
        }
    }

    private struct State {
        var generation: UInt64 = 0
        /// `cancel()` drops every generation up to this one.
        var cancelledThrough: UInt64 = 0
        var task: Task<Void, Never>?
        var lastDelivered: UInt64 = 0

        func isCurrent(_ generation: UInt64) -> Bool { self.generation == generation && generation > cancelledThrough }
    }

    private let state = Mutex(State())
    private let debounce: Duration
    private let sleeper: any Sleeper
    private let deliver: @Sendable (Outcome) -> Void

    /// - Parameter deliver: called once per submission with its outcome, from a background task.
    public init(debounce: Duration = .milliseconds(300), sleeper: any Sleeper = SystemSleeper(),
                deliver: @escaping @Sendable (Outcome) -> Void) {
        self.debounce = debounce
        self.sleeper = sleeper
        self.deliver = deliver
    }

    /// The newest generation handed out.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Replaces whatever was pending or running with `work`, which runs after the debounce unless a
    /// newer submission comes first. Returns the submission's generation: `requested` when the caller numbers
    /// its submissions itself (one id for a send from the caller to the delivery) and it is above the last one.
    @discardableResult
    public func submit(as requested: UInt64? = nil, _ work: @escaping @Sendable () async throws -> Value) -> UInt64 {
        let (generation, previous) = state.withLock { state in
            state.generation = max(state.generation + 1, requested ?? 0)
            let generation = state.generation
            let previous = state.task
            // Stored under the lock so the next submission always cancels this one.
            state.task = Task { [self] in await run(generation, work) }
            return (generation, previous)
        }
        previous?.cancel()
        return generation
    }

    /// Cancels the pending or running submission; nothing older can be delivered afterwards.
    public func cancel() {
        let previous = state.withLock { state in
            state.cancelledThrough = state.generation
            defer { state.task = nil }
            return state.task
        }
        previous?.cancel()
    }

    private func run(_ generation: UInt64, _ work: @Sendable () async throws -> Value) async {
        do {
            try await sleeper.sleep(for: debounce)
        } catch {
            deliver(.superseded(generation: generation, wasSent: false))
            return
        }
        guard isCurrent(generation), !Task.isCancelled else {
            deliver(.superseded(generation: generation, wasSent: false))
            return
        }
        let result: Result<Value, APIError>
        do {
            result = .success(try await work())
        } catch {
            result = .failure(APIError(error))
        }
        let deliverable = state.withLock { state in
            guard state.isCurrent(generation), generation > state.lastDelivered, !Task.isCancelled else {
                return false
            }
            state.lastDelivered = generation
            return true
        }
        deliver(deliverable ? .completed(generation: generation, result)
                            : .superseded(generation: generation, wasSent: true))
    }

    private func isCurrent(_ generation: UInt64) -> Bool { state.withLock { $0.isCurrent(generation) } }
}

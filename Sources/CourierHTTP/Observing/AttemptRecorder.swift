import Foundation
import Synchronization

/// One attempt as the log, `--json` and history show it.
public struct AttemptRecord: Sendable {
    public var requestID: RequestID
    /// The retry layer's number for this attempt (restarts at 1 when auth replays the request).
    public var attempt: Int
    /// The position among all attempts of the request, counting auth replays: 1, 2, 3…
    public var sequence: Int
    public var method: HTTPMethod
    public var url: URL
    public var startedAt: Date
    /// The status, when the attempt got a response.
    public var status: Int?
    /// The failure, when it did not (including `.cancelled`).
    public var error: APIError?
    public var timing: Timing?
    /// The wait before the next attempt, when the retry policy scheduled one.
    public var delayBeforeNext: Duration?
    /// Why the next attempt was scheduled.
    public var retryReason: String?
    /// Why this failed attempt was not retried, when the retry policy declined.
    public var retryDeclined: RetryDeclined?
    /// The attempt had not finished when the request was cancelled or superseded.
    public var cancelled = false
    public var superseded = false

    public var finished: Bool { status != nil || error != nil }
    public var reusedConnection: Bool { timing?.reusedConnection ?? false }
}

/// Turns `ClientEvent`s into attempt records, kept per request in arrival order. Thread-safe:
/// its state is behind a Mutex, so any sink may feed it.
public final class AttemptRecorder: Sendable {
    private struct State {
        var records: [AttemptRecord] = []
        var cache: [RequestID: CacheReport] = [:]
    }

    private let state = Mutex(State())
    /// The most records kept; the oldest go first.
    public let limit: Int

    public init(limit: Int = 10_000) { self.limit = limit }

    /// A sink that records every event.
    public var sink: EventSink { EventSink { [self] event in record(event) } }

    /// Folds one event into the records.
    public func record(_ event: ClientEvent) {
        state.withLock { state in
            switch event {
            case .attemptStarted(let id, let attempt, let method, let url, _, let date):
                let sequence = state.records.reduce(0) { $0 + ($1.requestID == id ? 1 : 0) } + 1
                state.records.append(AttemptRecord(requestID: id, attempt: attempt, sequence: sequence, method: method,
                                                   url: url, startedAt: date))
                if state.records.count > limit { state.records.removeFirst(state.records.count - limit) }
            case .attemptFinished(let id, let attempt, let outcome, let timing):
                guard let index = Self.last(in: state.records, id: id, attempt: attempt) else { return }
                state.records[index].timing = timing
                switch outcome {
                case .response(let status, _): state.records[index].status = status
                case .failure(let error): state.records[index].error = error
                }
            case .retryScheduled(let id, let attempt, let reason, let delay):
                guard let index = Self.last(in: state.records, id: id, attempt: attempt) else { return }
                state.records[index].delayBeforeNext = delay
                state.records[index].retryReason = reason
            case .retryDeclined(let id, let attempt, let declined):
                guard let index = Self.last(in: state.records, id: id, attempt: attempt) else { return }
                state.records[index].retryDeclined = declined
            case .cancelled(let id, let superseded):
                guard let index = state.records.lastIndex(where: { $0.requestID == id }) else { return }
                state.records[index].cancelled = true
                state.records[index].superseded = superseded
            case .cacheDecision(let id, let report):
                state.cache[id] = report
            case .tokenRefresh, .auth:
                break
            }
        }
    }

    /// The attempts of one request, in order.
    public func attempts(for id: RequestID) -> [AttemptRecord] {
        state.withLock { $0.records.filter { $0.requestID == id } }
    }

    /// Every record kept, in order.
    public var all: [AttemptRecord] { state.withLock { $0.records } }

    /// What the cache reported for a request, if it was consulted.
    public func cacheReport(for id: RequestID) -> CacheReport? { state.withLock { $0.cache[id] } }

    public func clear() { state.withLock { $0 = State() } }

    private static func last(in records: [AttemptRecord], id: RequestID, attempt: Int) -> Int? {
        records.lastIndex { $0.requestID == id && $0.attempt == attempt }
    }
}

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
/// its state is behind a Mutex, so any sink may feed it. Every operation costs the same however many
/// requests came before (a run of 8,000 requests asks for each one's attempts): records are numbered,
/// and each request keeps the numbers of its own.
public final class AttemptRecorder: Sendable {
    private struct State {
        /// Records by their number, from `oldest` up to `next` (less the requests forgotten).
        var records: [Int: AttemptRecord] = [:]
        var oldest = 0
        var next = 0
        var numbers: [RequestID: [Int]] = [:]
        var cache: [RequestID: CacheReport] = [:]
        /// The requests with a cache report, oldest first, so the reports are bounded as the records are.
        var cacheOrder: [RequestID] = []
        var cacheOrderStart = 0

        func last(_ id: RequestID, attempt: Int) -> Int? {
            numbers[id]?.last { records[$0]?.attempt == attempt }
        }

        mutating func append(_ record: AttemptRecord, limit: Int) {
            records[next] = record
            numbers[record.requestID, default: []].append(next)
            next += 1
            // A forgotten request leaves a gap in the numbers: stepped over, not stopped at.
            while records.count > limit, oldest < next {
                if let dropped = records.removeValue(forKey: oldest) {
                    numbers[dropped.requestID]?.removeFirst()
                    if numbers[dropped.requestID]?.isEmpty == true { numbers[dropped.requestID] = nil }
                }
                oldest += 1
            }
        }

        mutating func forget(_ id: RequestID) {
            for number in numbers.removeValue(forKey: id) ?? [] { records[number] = nil }
            cache[id] = nil
            while oldest < next && records[oldest] == nil { oldest += 1 }
        }

        mutating func report(_ report: CacheReport, for id: RequestID, limit: Int) {
            if cache.updateValue(report, forKey: id) == nil { cacheOrder.append(id) }
            while cache.count > limit, cacheOrderStart < cacheOrder.count {
                cache[cacheOrder[cacheOrderStart]] = nil
                cacheOrderStart += 1
            }
            // The queue's dropped head is let go of in one piece once it is most of the array.
            if cacheOrderStart > limit {
                cacheOrder.removeFirst(cacheOrderStart)
                cacheOrderStart = 0
            }
        }
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
            func update(_ number: Int?, _ change: (inout AttemptRecord) -> Void) {
                guard let number, var record = state.records[number] else { return }
                change(&record)
                state.records[number] = record
            }
            switch event {
            case .attemptStarted(let id, let attempt, let method, let url, _, let date):
                let sequence = (state.numbers[id]?.count ?? 0) + 1
                state.append(AttemptRecord(requestID: id, attempt: attempt, sequence: sequence, method: method,
                                           url: url, startedAt: date), limit: limit)
            case .attemptFinished(let id, let attempt, let outcome, let timing):
                update(state.last(id, attempt: attempt)) { record in
                    record.timing = timing
                    switch outcome {
                    case .response(let status, _): record.status = status
                    case .failure(let error): record.error = error
                    }
                }
            case .retryScheduled(let id, let attempt, let reason, let delay):
                update(state.last(id, attempt: attempt)) { record in
                    record.delayBeforeNext = delay
                    record.retryReason = reason
                }
            case .retryDeclined(let id, let attempt, let declined):
                update(state.last(id, attempt: attempt)) { $0.retryDeclined = declined }
            case .cancelled(let id, let superseded):
                update(state.numbers[id]?.last) { record in
                    record.cancelled = true
                    record.superseded = superseded
                }
            case .cacheDecision(let id, let report):
                state.report(report, for: id, limit: limit)
            case .tokenRefresh, .auth:
                break
            }
        }
    }

    /// The attempts of one request, in order.
    public func attempts(for id: RequestID) -> [AttemptRecord] {
        state.withLock { state in (state.numbers[id] ?? []).compactMap { state.records[$0] } }
    }

    /// Every record kept, in order.
    public var all: [AttemptRecord] {
        state.withLock { state in (state.oldest..<state.next).compactMap { state.records[$0] } }
    }

    /// What the cache reported for a request, if it was consulted.
    public func cacheReport(for id: RequestID) -> CacheReport? { state.withLock { $0.cache[id] } }

    /// Drops what was recorded of one request, once nothing will ask for it again (a long `courier run`
    /// without a report keeps none of the requests it has printed).
    public func forget(_ id: RequestID) { state.withLock { $0.forget(id) } }

    public func clear() { state.withLock { $0 = State() } }
}

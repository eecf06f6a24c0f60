import CourierHTTP
import Foundation

/// One row of the log: one attempt of a request, or a retry, cancellation or cache note about it.
public struct LogRow: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        case inFlight
        case status(Int)
        case failed(kind: String, message: String)
        case retry(reason: String, delay: Duration)
        case cancelled(superseded: Bool)
        case cache(String)
    }
    public var request: RequestID
    public var attempt: Int
    public var method: String
    public var path: String
    public var outcome: Outcome
    public var duration: Duration?
    public var started: Date

    public init(request: RequestID, attempt: Int, method: String, path: String, outcome: Outcome,
                duration: Duration? = nil, started: Date) {
        self.request = request
        self.attempt = attempt
        self.method = method
        self.path = path
        self.outcome = outcome
        self.duration = duration
        self.started = started
    }
}

/// The log pane: rows from the client's events, bounded, newest last.
public struct LogState: Sendable, Hashable {
    public var rows: [LogRow] = []
    public var selection = 0
    /// Keep the newest row in view as rows arrive.
    public var follow = true
    /// The most rows kept; older ones are dropped.
    public var limit = 500

    public init() {}

    /// Folds one client event into the rows.
    public mutating func apply(_ event: ClientEvent) {
        switch event {
        case .attemptStarted(let id, let attempt, let method, let url, _, let at):
            var path = url.path.isEmpty ? "/" : url.path
            if let query = url.query { path += "?" + query }
            append(LogRow(request: id, attempt: attempt, method: method.rawValue, path: path, outcome: .inFlight,
                          started: at))
        case .attemptFinished(let id, let attempt, let outcome, let timing):
            guard let index = rows.lastIndex(where: { $0.request == id && $0.attempt == attempt }) else { return }
            switch outcome {
            case .response(let status, _): rows[index].outcome = .status(status)
            case .failure(.cancelled): rows[index].outcome = .cancelled(superseded: false)
            case .failure(let error): rows[index].outcome = .failed(kind: error.kind, message: "\(error)")
            }
            rows[index].duration = timing?.total
        case .retryScheduled(let id, let attempt, let reason, let delay):
            let base = rows.last { $0.request == id }
            append(LogRow(request: id, attempt: attempt, method: base?.method ?? "", path: base?.path ?? "",
                          outcome: .retry(reason: reason, delay: delay), started: Date()))
        case .cancelled(let id, let superseded):
            if let index = rows.lastIndex(where: { $0.request == id }) {
                switch rows[index].outcome {
                case .inFlight, .retry, .failed(kind: "cancelled", _): rows[index].outcome = .cancelled(superseded: superseded)
                case .cancelled: rows[index].outcome = .cancelled(superseded: superseded)
                default: break
                }
            }
        case .cacheDecision(let id, let report):
            let base = rows.last { $0.request == id }
            if report.decision != .bypass {
                append(LogRow(request: id, attempt: base?.attempt ?? 1, method: base?.method ?? "",
                              path: base?.path ?? "", outcome: .cache(report.decision.rawValue), started: Date()))
            }
        case .tokenRefresh:
            break
        }
    }

    private mutating func append(_ row: LogRow) {
        rows.append(row)
        if rows.count > limit { rows.removeFirst(rows.count - limit) }
        if follow { selection = rows.count - 1 }
    }
}

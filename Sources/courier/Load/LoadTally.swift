import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// What `courier load` has counted so far: requests, statuses, errors by kind, bytes, latencies and the
/// phases of the attempts. Thread-safe: every worker records into it, the live view reads it.
final class LoadTally: Sendable {
    /// A copy of the counts at one moment.
    struct Snapshot: Sendable {
        var requests = 0
        /// Requests that did not succeed as `courier run` judges them (an error, a status, a failed test).
        var failed = 0
        var statuses: [Int: Int] = [:]
        /// By `APIError.Kind` name, or `collection`, `script`, `tests`, `websocket` for failures before or
        /// after the exchange.
        var errors: [String: Int] = [:]
        var bytesReceived = 0
        var bytesSent = 0
        var latency = LatencyHistogram()
        /// Time from the attempt's start to the end of each phase, over the attempts where it happened.
        var dns = LatencyHistogram()
        var connect = LatencyHistogram()
        var tls = LatencyHistogram()
        var firstByte = LatencyHistogram()
    }

    private let state = Mutex(Snapshot())

    /// Counts one request that took `latency` (from its intended start under `--rate`).
    func record(_ result: LoadRequest.Result, latency: Duration) {
        let response = result.response
        record(status: response?.status, timing: response?.timing, bodySize: response?.body.size ?? 0,
               failed: result.failed, errorKind: result.errorKind, latency: latency)
    }

    /// Counts one exchange the curl loop sent itself (`CurlRepeater`), timed from its transfer's start.
    func record(_ exchange: RepeatedExchange, failed: Bool) {
        record(status: exchange.status, timing: exchange.status == nil ? nil : exchange.timing,
               bodySize: exchange.timing.bytesReceived, failed: failed, errorKind: exchange.error?.kind.rawValue,
               latency: exchange.timing.total)
    }

    private func record(status: Int?, timing: Timing?, bodySize: Int, failed: Bool, errorKind: String?,
                        latency: Duration) {
        state.withLock { tally in
            tally.requests += 1
            tally.latency.record(latency)
            if failed { tally.failed += 1 }
            if let status, let timing {
                tally.statuses[status, default: 0] += 1
                tally.bytesReceived += timing.bytesOnWire > 0 ? timing.bytesOnWire : bodySize
                tally.bytesSent += timing.bytesSent
                if !timing.reusedConnection {
                    if let dns = timing.dns { tally.dns.record(dns) }
                    if let connect = timing.connect { tally.connect.record(connect) }
                }
                if let tls = timing.tls, tls > .zero { tally.tls.record(tls) }
                if let firstByte = timing.firstByte { tally.firstByte.record(firstByte) }
            }
            if let errorKind { tally.errors[errorKind, default: 0] += 1 }
        }
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    /// The kind a failed request is counted under; nil when it succeeded or failed only by its status
    /// (counted under the status).
    static func errorKind(_ outcome: RunOutcome) -> String? {
        switch outcome.failure {
        case nil, .status?: nil
        case .transport(let error)?: error.kind.rawValue
        case .collection?: "collection"
        case .script?: "script"
        case .tests?: "tests"
        case .webSocket?: "websocket"
        }
    }
}

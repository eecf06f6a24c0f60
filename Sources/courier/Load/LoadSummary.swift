import CourierBody
import CourierCollections
import Foundation

/// `courier load`'s final summary, as text or as one JSON object.
struct LoadSummary {
    var snapshot: LoadTally.Snapshot
    var elapsed: Duration
    var concurrency: Int
    var rate: Double?
    /// Attempts in all per request when `--retry` turned retries on; nil when they are off.
    var retryAttempts: Int?
    /// Whether the request was resolved once for the whole run (`LoadRequest.resolvedOnce`).
    var resolvedOnce = false
    /// Whether every request went straight to the transport, past the pipeline's steps (`LoadRequest.sentDirect`).
    var sentDirect = false
    /// Whether the curl loop sent the requests itself, with no task per request (`LoadRun.Report.sentOnLoop`).
    var sentOnLoop = false
    /// Whether the loops wrote the requests on their own connections, read with http-parser
    /// (`LoadRun.Report.sentOnWire`), rather than through libcurl's transfers.
    var sentOnWire = false
    /// Whether it handed the rest back to the workers: a response redirected or set a cookie.
    var handedOver = false
    /// Where each latency was counted from.
    var origin = LoadRun.Origin.transferStart

    private var seconds: Double { max(elapsed.milliseconds / 1000, 0.000_001) }
    private var throughput: Double { Double(snapshot.requests) / seconds }

    /// `200 ×990, 503 ×10`, largest first.
    static func counts(_ pairs: [(String, Int)]) -> String {
        if pairs.isEmpty { return "none" }
        return pairs.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map { "\($0.0) ×\($0.1)" }
            .joined(separator: ", ")
    }

    /// Nanoseconds as milliseconds for people: `0.42 ms`, `12.3 ms`, `1,204 ms`.
    static func milliseconds(_ nanoseconds: UInt64) -> String { milliseconds(Double(nanoseconds)) }

    static func milliseconds(_ nanoseconds: Double) -> String {
        let value = nanoseconds / 1_000_000
        return value < 10 ? String(format: "%.2f ms", value) : String(format: "%.1f ms", value)
    }

    var text: String {
        let loop = rate.map { String(format: "open loop at %g req/s", $0) } ?? "closed loop"
        var lines = [String(format: "%d requests in %.2f s: %.1f req/s", snapshot.requests, seconds, throughput)
                         + " (\(concurrency) at once, \(loop))"]
        lines.append("statuses: " + Self.counts(snapshot.statuses.map { (String($0.key), $0.value) }))
        lines.append("errors: " + Self.counts(snapshot.errors.map { ($0.key, $0.value) }))
        lines.append("bytes: \(MediaKind.formatSize(snapshot.bytesReceived)) received, "
                         + "\(MediaKind.formatSize(snapshot.bytesSent)) sent")
        let latency = snapshot.latency
        if latency.count > 0 {
            let parts = [("p50", 50.0), ("p90", 90), ("p99", 99)].map { name, percent in
                "\(name) \(Self.milliseconds(latency.percentile(percent) ?? 0))"
            }
            let from = switch origin {
            case .transferStart: "each exchange, from its transfer's start"
            case .sendStart: "from each request's first attempt, retries included"
            case .dueTime: "from each request's due time"
            }
            lines.append("latency: " + parts.joined(separator: "  ") + "  max \(Self.milliseconds(latency.max))")
            lines.append("  (\(from))")
        }
        let phases = [("DNS", snapshot.dns), ("connect", snapshot.connect), ("TLS", snapshot.tls),
                      ("first byte", snapshot.firstByte)].compactMap { name, histogram in
            histogram.mean.map { "\(name) \(Self.milliseconds($0))" }
        }
        if !phases.isEmpty {
            lines.append("phases: " + phases.joined(separator: ", "))
            lines.append("  (mean time from an attempt's start)")
        }
        lines.append(retryAttempts.map { "retries: on, up to \($0) attempts a request (--retry)" }
                         ?? "retries: off")
        lines.append(resolvedOnce ? "resolved: once, the same request every time"
                     : "resolved: for every request (it has scripts or dynamic variables)")
        if resolvedOnce, sentDirect {
            // Each clause on a line of its own: the summary reads whole in an 80-column terminal.
            lines.append("  sent straight to the transport")
            lines.append("  (no auth, cache, retry or signing step has work for it)")
            lines += loopNote
        }
        return lines.joined(separator: "\n")
    }

    /// How the curl loop took part, for the text summary's `resolved:` lines.
    private var loopNote: [String] {
        guard sentOnLoop else { return [] }
        let how = sentOnWire ? "  by the loop itself on its own connections, read with http-parser"
            : "  by the curl loop itself"
        return [how, handedOver ? "  until a response redirected or set a cookie" : "  (no task per request)"]
    }

    var json: [String: Any] {
        func ms(_ nanoseconds: UInt64?) -> Any { nanoseconds.map { Double($0) / 1_000_000 } ?? NSNull() }
        func mean(_ histogram: LatencyHistogram) -> Any { histogram.mean.map { $0 / 1_000_000 } ?? NSNull() }
        let latency = snapshot.latency
        return [
            "requests": snapshot.requests,
            "failed": snapshot.failed,
            "seconds": seconds,
            "requestsPerSecond": throughput,
            "concurrency": concurrency,
            "mode": rate == nil ? "closed" : "open",
            "rate": rate ?? NSNull(),
            "statuses": Dictionary(uniqueKeysWithValues: snapshot.statuses.map { (String($0.key), $0.value) }),
            "errors": snapshot.errors,
            "bytesReceived": snapshot.bytesReceived,
            "bytesSent": snapshot.bytesSent,
            "latencyMs": [
                "p50": ms(latency.percentile(50)), "p75": ms(latency.percentile(75)), "p90": ms(latency.percentile(90)),
                "p99": ms(latency.percentile(99)), "max": ms(latency.count > 0 ? latency.max : nil),
                "min": ms(latency.count > 0 ? latency.min : nil), "mean": mean(latency),
            ] as [String: Any],
            "phasesMs": ["dns": mean(snapshot.dns), "connect": mean(snapshot.connect), "tls": mean(snapshot.tls),
                         "firstByte": mean(snapshot.firstByte)] as [String: Any],
            "retryAttempts": retryAttempts ?? 1,
            "resolvedOnce": resolvedOnce,
            "sentDirect": sentDirect,
            "sentOnLoop": sentOnLoop,
            "loopPath": !sentOnLoop ? NSNull() : sentOnWire ? "http-parser" : "libcurl",
            "latencyFrom": origin.rawValue,
        ]
    }
}

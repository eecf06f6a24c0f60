import Foundation

/// `courier run --report json FILE`: the whole run as one JSON document, versioned by `"version"` (1): the
/// fields are listed in the README ("Reports"); a field may be added within a version, never renamed or
/// removed.
struct JSONReport: Sendable {
    /// The layout's version; raised only when a field changes meaning or goes away.
    static let version = 1
    let report: RunReport

    init(_ report: RunReport) { self.report = report }

    func text() -> String {
        let summary: [String: Any] = [
            "requests": report.requests.count, "passed": report.count(.passed), "failed": report.count(.failed),
            "errors": report.count(.error), "skipped": report.count(.skipped),
            "tests": report.requests.reduce(0) { $0 + $1.tests.count },
            "tests_failed": report.requests.reduce(0) { $0 + $1.tests.filter { !$0.passed }.count },
        ]
        let document: [String: Any] = [
            "format": "courier-run-report", "version": Self.version,
            "started": Self.timestamp(report.started),
            "duration_ms": Self.milliseconds(report.finished.timeIntervalSince(report.started)),
            "summary": summary, "requests": report.requests.map(object),
        ]
        return ResponseOutput.serialize(document) + "\n"
    }

    private func object(_ request: RunReport.Request) -> [String: Any] {
        var fields: [String: Any] = [
            "file": request.file, "name": request.name, "result": request.result.rawValue,
            "round": request.round, "duration_ms": Self.milliseconds(request.seconds),
            "bytes_received": request.bytesReceived,
            "phases_ms": request.phases.mapValues { ($0 * 1000).rounded() / 1000 },
            "tests": request.tests.map { ["name": $0.name, "passed": $0.passed, "message": $0.message] },
        ]
        fields["method"] = request.method ?? NSNull()
        fields["url"] = request.url ?? NSNull()
        fields["status"] = request.status ?? NSNull()
        fields["error_kind"] = request.errorKind ?? NSNull()
        fields["message"] = request.message ?? NSNull()
        fields["started"] = request.started.map(Self.timestamp) ?? NSNull()
        return fields
    }

    static func milliseconds(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1000 }

    /// RFC 3339 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

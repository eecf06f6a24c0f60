import CourierHTTP
import CourierSecurity
import Foundation

/// `courier run --report html FILE`: one self-contained page (no script, no external resource: its
/// Content-Security-Policy forbids both) with the run's counts, the failures first, then every request with its
/// status, time and a waterfall bar placed by when it started, and its tests under a disclosure. Every text
/// is masked when the report is collected and HTML-escaped here, terminal controls shown as escapes.
struct HTMLReport: Sendable {
    let report: RunReport

    init(_ report: RunReport) { self.report = report }

    func html() -> String {
        let requests = report.requests
        let failing = requests.filter { $0.result == .failed || $0.result == .error
            || $0.tests.contains { !$0.passed } }
        let origin = requests.compactMap(\.started).min() ?? report.started
        let end = requests.map { ($0.started ?? origin).addingTimeInterval($0.seconds) }.max() ?? origin
        let span = max(end.timeIntervalSince(origin), 0.001)
        var body = "<h1>courier run</h1>\n<p class=\"counts\">"
        let errors = report.count(.error)
        body += [("passed", report.count(.passed), "passed"), ("failed", report.count(.failed), "failed"),
                 ("error", errors, errors == 1 ? "error" : "errors"), ("skipped", report.count(.skipped), "skipped")]
            .map { "<span class=\"\($0.0)\">\($0.1) \($0.2)</span>" }.joined(separator: " · ")
        let took = report.finished.timeIntervalSince(report.started)
        body += " · \(requests.count) requests in \(DurationText.format(seconds: took))"
        body += " · started \(Self.escape(JSONReport.timestamp(report.started)))</p>\n"
        if !failing.isEmpty {
            body += "<h2>Failures</h2>\n<table class=\"failures\">\n<tr><th>Request</th><th>File</th><th>Status</th>"
                + "<th>What went wrong</th></tr>\n"
            for request in failing {
                var reasons = request.message.map { [$0] } ?? []
                reasons += request.tests.filter { !$0.passed }.map { "✗ \($0.name)" + ($0.message.isEmpty ? ""
                                                                                           : ": \($0.message)") }
                body += "<tr class=\"\(request.result.rawValue)\"><td>\(Self.escape(request.name))</td>"
                    + "<td>\(Self.escape(request.file))</td><td>\(request.status.map(String.init) ?? "–")</td>"
                    + "<td>\(reasons.map(Self.escape).joined(separator: "<br>"))</td></tr>\n"
            }
            body += "</table>\n"
        }
        body += "<h2>Requests</h2>\n<table class=\"requests\">\n<tr><th>Request</th><th>Status</th><th>Time</th>"
            + "<th class=\"waterfall\">Waterfall (\(DurationText.format(seconds: span)))</th></tr>\n"
        for request in requests {
            let offset = (request.started ?? origin).timeIntervalSince(origin) / span * 100
            let width = max(request.seconds / span * 100, 0.3)
            let status = request.status.map(String.init) ?? (request.result == .skipped ? "skipped" : "–")
            body += "<tr class=\"\(request.result.rawValue)\"><td><details><summary>\(Self.escape(request.name))"
                + " <small>\(Self.escape(request.file))</small></summary>\n"
            body += "<p>\(Self.escape([request.method, request.url].compactMap { $0 }.joined(separator: " ")))</p>\n"
            if let message = request.message { body += "<p class=\"message\">\(Self.escape(message))</p>\n" }
            if !request.phases.isEmpty {
                let names = [("dns", "DNS"), ("connect", "connect"), ("tls", "TLS"), ("firstByte", "first byte")]
                body += "<p>" + names.compactMap { key, label in
                    request.phases[key].map { "\(label) \(DurationText.format(seconds: $0 / 1000))" }
                }.joined(separator: " · ") + "</p>\n"
            }
            if !request.tests.isEmpty {
                body += "<ul class=\"tests\">" + request.tests.map { test in
                    "<li class=\"\(test.passed ? "passed" : "failed")\">\(test.passed ? "✓" : "✗") "
                        + Self.escape(test.name) + (test.message.isEmpty ? "" : ": " + Self.escape(test.message))
                        + "</li>"
                }.joined() + "</ul>\n"
            }
            body += "</details></td><td>\(status)</td>"
                + "<td>\(DurationText.format(seconds: request.seconds))</td>"
                + "<td class=\"waterfall\"><div class=\"bar\" style=\"margin-left: \(Self.percent(offset)); "
                + "width: \(Self.percent(width))\"></div></td></tr>\n"
        }
        body += "</table>\n"
        return Self.page(body)
    }

    private static func page(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>courier run report</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d1d1f; }
        table { border-collapse: collapse; width: 100%; margin-bottom: 1.5em; }
        th, td { text-align: left; padding: 0.3em 0.5em; border-bottom: 1px solid #ddd; vertical-align: top; }
        td:first-child { width: 40%; }
        .counts span { font-weight: bold; }
        .passed { color: #1a7f37; } .failed, .error { color: #b42318; } .skipped { color: #777; }
        tr.failed td, tr.error td { background: #fff4f2; }
        tr td { color: #1d1d1f; }
        .waterfall { width: 35%; }
        .bar { height: 0.8em; margin-top: 0.3em; background: #3d7bd9; min-width: 2px; }
        tr.failed .bar, tr.error .bar { background: #d9483d; }
        summary { cursor: pointer; }
        small { color: #777; }
        ul.tests { margin: 0.3em 0; padding-left: 1.2em; list-style: none; }
        .message { color: #b42318; }
        </style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    private static func percent(_ value: Double) -> String { String(format: "%.2f%%", min(max(value, 0), 100)) }

    /// Text for HTML: `&<>"'` as entities, terminal controls as the sanitiser's escapes.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in Sanitizer.escaped(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

import CourierSecurity
import Foundation

/// `courier run --report tap FILE`: TAP version 14, one test point per request and one per test of its
/// scripts, in the order they ran. A failed point carries a YAML block (message, severity, status, file); a
/// skipped request is `ok … # SKIP reason`.
struct TAPReport: Sendable {
    let report: RunReport

    init(_ report: RunReport) { self.report = report }

    func text() -> String {
        var points: [String] = []
        for request in report.requests {
            let title = "\(request.file) › \(request.name)"
            var point = (request.result == .failed || request.result == .error) && request.errorKind != "tests"
                ? "not ok" : "ok"
            point += " \(points.count + 1) - \(Self.description(title))"
            if request.result == .skipped {
                points.append(point + " # SKIP \(Self.description(request.message ?? ""))")
                continue
            }
            if point.hasPrefix("not ok") {
                point += "\n" + Self.yaml([("message", request.message ?? "failed"),
                                           ("severity", request.result == .error ? "error" : "fail"),
                                           ("kind", request.errorKind ?? ""), ("file", request.file)]
                                          + (request.status.map { [("status", String($0))] } ?? []))
            }
            points.append(point)
            for test in request.tests {
                var line = "\(test.passed ? "ok" : "not ok") \(points.count + 1) - "
                    + Self.description("\(title) › \(test.name)")
                if !test.passed {
                    line += "\n" + Self.yaml([("message", test.message.isEmpty ? "failed" : test.message),
                                              ("severity", "fail"), ("file", request.file)])
                }
                points.append(line)
            }
        }
        return (["TAP version 14", "1..\(points.count)"] + points).joined(separator: "\n") + "\n"
    }

    /// A test point's description: on one line, terminal controls escaped, and `#` (which would start a
    /// directive) and `\` escaped as TAP 14 says.
    static func description(_ text: String) -> String {
        var out = ""
        for character in Sanitizer.escaped(text) {
            switch character {
            case "\\": out += "\\\\"
            case "#": out += "\\#"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// A YAML diagnostic block, indented two spaces, each value a double-quoted YAML string.
    static func yaml(_ fields: [(String, String)]) -> String {
        (["  ---"] + fields.map { "  \($0.0): \(quoted($0.1))" } + ["  ..."]).joined(separator: "\n")
    }

    /// `"text"` in YAML's double-quoted style: backslash, quote and every control escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in Sanitizer.escaped(text).unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\x%02X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

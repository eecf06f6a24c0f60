import CourierSecurity
import Foundation

/// `courier run --report junit FILE`: one test suite per file, one test case per request (did it succeed)
/// and one per `client.test` / `pm.test`, in the JUnit XML that CI systems read. A request that could not be
/// built or sent is an `<error>`, one the server answered wrongly a `<failure>`.
struct JUnitReport: Sendable {
    struct Case: Sendable {
        var name: String
        var seconds: Double
        /// The failure message, or nil when the case passed.
        var failure: String?
        /// Set when the request could not be built or sent (an error rather than a failed assertion).
        var isError = false
    }

    struct Suite: Sendable {
        var name: String
        var cases: [Case] = []
    }

    private(set) var suites: [Suite] = []

    /// The report's requests grouped by file (and by round when the run was repeated), skipped ones left out.
    init(_ report: RunReport) {
        let rounds = Set(report.requests.map(\.round)).count
        for request in report.requests where request.result != .skipped {
            let suiteName = rounds > 1 ? "\(request.file) (round \(request.round))" : request.file
            if suites.last?.name != suiteName {
                if let index = suites.firstIndex(where: { $0.name == suiteName }) {
                    // --jobs finishes files' requests in any order: keep each file's cases together.
                    suites.append(suites.remove(at: index))
                } else {
                    suites.append(Suite(name: suiteName))
                }
            }
            var cases = [Case(name: request.name, seconds: request.seconds,
                              failure: request.result == .passed || request.errorKind == "tests" ? nil
                                  : request.message ?? "failed",
                              isError: request.result == .error)]
            for test in request.tests {
                let failure = test.passed ? nil : (test.message.isEmpty ? "failed" : test.message)
                cases.append(Case(name: "\(request.name) › \(test.name)", seconds: 0, failure: failure))
            }
            suites[suites.count - 1].cases += cases
        }
    }

    /// The report as XML.
    func xml() -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let all = suites.flatMap(\.cases)
        lines.append(#"<testsuites name="courier run" tests="\#(all.count)" "#
            + #"failures="\#(all.filter { $0.failure != nil && !$0.isError }.count)" "#
            + #"errors="\#(all.filter(\.isError).count)">"#)
        for suite in suites {
            let failures = suite.cases.filter { $0.failure != nil && !$0.isError }.count
            let errors = suite.cases.filter(\.isError).count
            lines.append(#"  <testsuite name="\#(escape(suite.name))" tests="\#(suite.cases.count)" "#
                + #"failures="\#(failures)" errors="\#(errors)">"#)
            for test in suite.cases {
                let open = #"    <testcase classname="\#(escape(suite.name))" name="\#(escape(test.name))" "#
                    + #"time="\#(String(format: "%.3f", test.seconds))""#
                guard let failure = test.failure else {
                    lines.append(open + "/>")
                    continue
                }
                let element = test.isError ? "error" : "failure"
                lines.append(open + ">")
                lines.append(#"      <\#(element) message="\#(escape(failure))"/>"#)
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for an XML attribute. Controls a terminal or an editor would act on (C0, DEL, C1, bidi
    /// overrides) are written as the sanitiser's escapes (`\x9B`, `\u202E`), as on standard output, since
    /// CI systems print these names and messages; characters XML 1.0 forbids are dropped.
    private func escape(_ text: String) -> String {
        var out = ""
        for scalar in Sanitizer.escaped(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

import CourierSecurity
import CourierCollections
import Foundation

/// `courier run --report junit FILE`: one test suite per file, one test case per request (did it succeed)
/// and one per `client.test` / `pm.test`, in the JUnit XML that CI systems read.
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

    /// Adds the outcomes of one file as a suite; `secrets` are hidden from the messages.
    mutating func add(_ outcomes: [RunOutcome], file: String, secrets: Set<String>) {
        var suite = Suite(name: file)
        for outcome in outcomes where outcome.skipped == nil {
            let name = outcome.template.displayName
            let seconds = outcome.response.map { Double($0.timing.total.components.seconds)
                + Double($0.timing.total.components.attoseconds) / 1e18 } ?? 0
            var request = Case(name: name, seconds: seconds)
            switch outcome.failure {
            case .none, .tests: break
            case .status(let status): request.failure = "status \(status)"
            case .script(let error): request.failure = "script error: \(error)"
            case .collection(let error): request.failure = error.description; request.isError = true
            case .transport(let error): request.failure = error.description; request.isError = true
            case .webSocket(let failure): request.failure = failure.message; request.isError = true
            }
            suite.cases.append(request)
            for test in outcome.scripts.tests {
                let failure = test.passed ? nil : (test.message.isEmpty ? "failed" : test.message)
                suite.cases.append(Case(name: "\(name) › \(test.name)", seconds: 0, failure: failure))
            }
        }
        for index in suite.cases.indices {
            suite.cases[index].failure = suite.cases[index].failure.map {
                SecretPolicy.masking($0, secrets: secrets)
            }
        }
        suites.append(suite)
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

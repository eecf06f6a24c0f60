import CourierCollections
import CourierScript
import Foundation

/// The part of a `courier run` result that scripts wrote: a line per test, log lines, a script error.
extension RunCommand {
    /// `✓ name` / `✗ name: message` per test, then `log:` lines and the error that stopped a handler.
    static func scriptLines(_ report: ScriptReport) -> [String] {
        var lines: [String] = []
        for line in report.logs { lines.append("log: \(line)") }
        for test in report.tests {
            let message = test.passed || test.message.isEmpty ? "" : ": \(test.message)"
            lines.append((test.passed ? "✓ " : "✗ ") + test.name + message)
        }
        if let summary = report.testSummary { lines.append(summary) }
        if let error = report.error { lines.append("script error: \(error)") }
        return lines
    }
}

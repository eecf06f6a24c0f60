import CourierBody
import Foundation

/// The JSONPath filter runs in the background (`BodyFilter`): submitting starts it (cancelling one still
/// running), the bottom line shows its progress, Esc cancels it, and the tick that sees it finished
/// shows the result instead of the body.
extension ResponsePaneState {
    /// Starts filtering the body with `text`; an empty expression leaves the filter.
    mutating func startFilter(_ text: String) {
        let expression = text.trimmingCharacters(in: .whitespaces)
        guard !expression.isEmpty else {
            _ = cancelFilter()
            switchSource { $0.filter = nil }
            return
        }
        do {
            let path = try JSONPath(expression)
            filtering?.cancel()
            filtering = BodyFilter(path, body: body)
        } catch {
            message = "\(error)"
        }
    }

    /// Shows a finished filter's result (or its error); called on every tick.
    mutating func finishFilter() {
        guard let running = filtering, running.isFinished else { return }
        filtering = nil
        if let output = running.output {
            switchSource { $0.filter = (running.path.expression, output.document, output.matches) }
        } else if let error = running.error {
            message = "\(error)"
        }
    }

    /// Cancels a running filter and returns to the body; false when none was running.
    mutating func cancelFilter() -> Bool {
        guard let running = filtering else { return false }
        running.cancel()
        filtering = nil
        if filter != nil { switchSource { $0.filter = nil } }
        return true
    }

    /// The bottom line while a filter runs: "filtering 37% · 1,204 matches · Esc cancels".
    var filterProgressText: String? {
        guard let running = filtering else { return nil }
        let count = running.matchCount
        let percent = min(99, Int(running.progress * 100))
        return "filtering \(percent)% · \(Self.grouped(count)) match\(count == 1 ? "" : "es") · Esc cancels"
    }

    /// `1204` as "1,204".
    static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return (number < 0 ? "-" : "") + digits + out
    }
}

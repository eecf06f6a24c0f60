import CourierBody
import Foundation

/// The JSONPath filter runs in a body job: submitting asks the app to start it (the app cancels one still
/// running by its generation), the bottom line shows its progress, Esc cancels it, and the action with its
/// result shows the matches instead of the body.
extension ResponsePaneState {
    /// Checks `text` and asks for a filter by it; an empty expression leaves the filter.
    mutating func startFilter(_ text: String) -> ResponsePaneEffect? {
        var expression = text.trimmingCharacters(in: .whitespaces)
        // `.users` and `[0]` mean from the root: the prompt starts empty, so the `$` may be left out.
        if expression.hasPrefix(".") || expression.hasPrefix("[") { expression = "$" + expression }
        guard !expression.isEmpty else {
            _ = cancelFilter()
            switchSource { $0.filter = nil }
            return nil
        }
        do {
            return .filter(BodyFilter(try JSONPath(expression)))
        } catch {
            message = "\(error)"
            return nil
        }
    }

    /// Shows a finished filter's result, or its error on the bottom line.
    mutating func finishFilter(_ outcome: Result<BodyFilter.Output, BodyError>) {
        guard let running = filtering else { return }
        filtering = nil
        switch outcome {
        case .success(let output):
            switchSource { $0.filter = (running.path.expression, output.document, output.matches) }
        case .failure(let error):
            message = "\(error)"
        }
    }

    /// Forgets a running filter (its job is cancelled by generation) and returns to the body; false when none
    /// was running.
    mutating func cancelFilter() -> Bool {
        guard filtering != nil else { return false }
        filtering = nil
        if filter != nil { switchSource { $0.filter = nil } }
        return true
    }

    /// The bottom line while a filter runs: "filtering 37% · 1,204 matches · Esc cancels".
    var filterProgressText: String? {
        guard let running = filtering else { return nil }
        let count = running.progress.matches
        let percent = min(99, Int(running.progress.fraction * 100))
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

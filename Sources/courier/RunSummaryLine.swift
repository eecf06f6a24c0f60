import CourierBody
import CourierCollections
import CourierHTTP
import CourierSecurity

/// `courier run --summary`: one line per request, what it got and how long it took, marked ✓ or ✗:
/// `✓ 200  getUser  12 ms  1.2 KB`, `✗ connectionRefused  down: nothing listens on 127.0.0.1:8088`.
enum RunSummaryLine {
    static func line(_ outcome: RunOutcome, secrets: Set<String>) -> String {
        let name = outcome.template.displayName
        if let skipped = outcome.skipped { return "- skipped  \(name): \(skipped)" }
        let mark = outcome.succeeded ? "✓" : "✗"
        if let result = outcome.webSocket {
            var parts = [mark + " " + (result.status.map(String.init) ?? "-"), name,
                         "WebSocket: sent \(result.sent), received \(result.received)",
                         DurationText.format(seconds: result.seconds)]
            if let failure = result.failure { parts.append("\(failure.kind): \(failure.message)") }
            return masked(parts.joined(separator: "  "), secrets)
        }
        if let response = outcome.response {
            var parts = ["\(mark) \(response.status)", name, DurationText.format(response.timing.total),
                         MediaKind.formatSize(response.body.size)]
            switch outcome.failure {
            case .status(let status):
                let expected = outcome.template.expectedStatuses.sorted().map(String.init).joined(separator: ", ")
                parts.append("status \(status)" + (expected.isEmpty ? "" : ", expected \(expected)"))
            case .some(let failure): parts.append(failure.summary)
            case nil: break
            }
            return masked(parts.joined(separator: "  "), secrets)
        }
        let kind = switch outcome.failure {
        case .transport(let error): error.kind.rawValue
        case .collection: "collection"
        case .script: "script"
        default: "failed"
        }
        return masked("\(mark) \(kind)  \(name): " + (outcome.failure.map(\.summary) ?? "no response"), secrets)
    }

    private static func masked(_ text: String, _ secrets: Set<String>) -> String {
        SecretPolicy.masking(text, secrets: secrets)
    }
}

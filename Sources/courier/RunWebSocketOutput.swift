import CourierSecurity
import CourierCollections
import CourierHTTP
import Foundation

/// Printing the result of one `WEBSOCKET` request of `courier run`: one line (and the error), or one
/// JSON object with the same facts.
extension RunCommand {
    /// `### name`, then `WebSocket 101  sent 2  received 2  12.3 ms  close 1000`, then the error if any.
    static func printWebSocket(_ result: WebSocketRunResult, name: String, json: Bool, file: String?,
                               secrets: Set<String>) {
        if json {
            var fields: [String: Any] = [
                "name": name,
                "type": "websocket",
                "url": result.url.absoluteString,
                "status": result.status.map { $0 as Any } ?? NSNull(),
                "sent": result.sent,
                "received": result.received,
                "time_ms": (result.seconds * 1_000_000).rounded() / 1000,
                "close_code": result.closeCode.map { $0 as Any } ?? NSNull(),
                "error": result.failure.map { ["kind": $0.kind.description, "message": $0.message] as Any } ?? NSNull(),
                "attempts": [Any](),
                "tests": [Any](),
            ]
            if let file { fields["file"] = file }
            Console.out(SecretPolicy.masking(ResponseOutput.serialize(fields), secrets: secrets))
            return
        }
        var line = ["WebSocket " + (result.status.map(String.init) ?? "-"), "sent \(result.sent)",
                    "received \(result.received)", DurationText.format(seconds: result.seconds)]
        if let code = result.closeCode { line.append("close \(code)") }
        var lines = ["### \(name)", line.joined(separator: "  ")]
        if let failure = result.failure { lines.append("Error: \(failure.message) [\(failure.kind)]") }
        Console.out(SecretPolicy.masking(Sanitizer.escaped(lines.joined(separator: "\n")), secrets: secrets) + "\n")
    }
}

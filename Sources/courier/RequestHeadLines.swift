import CourierHTTP
import CourierMessage
import CourierSecurity
import Foundation

/// The request head curl sent, as `courier send -v` prints it: `> ` before each line, like curl's own `-v`,
/// with secret header values masked after their scheme (`Authorization: Bearer REDACTED`) and the request's
/// known secrets masked everywhere else (a token in the query of the request line).
enum RequestHeadLines {
    static func lines(_ head: String, secrets: [String], showSecrets: Bool) -> [String] {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: true).flatMap {
            $0.split(separator: "\n", omittingEmptySubsequences: true)
        }
        return lines.enumerated().map { index, line in
            let text = String(line)
            guard !showSecrets else { return "> " + text }
            // The first line is the request line, whose target may carry `access_token=` in its query.
            guard index > 0, let colon = text.firstIndex(of: ":") else {
                return "> " + SecretPolicy.maskedURL(text, secrets: secrets)
            }
            let name = String(text[..<colon])
            let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            let masked = HTTPHeaders([HTTPHeaders.Field(name: name, value: value)]).redacted(secrets: secrets)
            return "> \(name): " + (masked.fields.first?.value ?? value)
        }
    }
}

import Foundation
import CourierHTTP

/// What is hidden when a request is printed or exported, unless the user asks to see it.
public enum Redaction {
    /// What a hidden value is replaced with.
    public static let placeholder = "REDACTED"
    /// Headers whose values are credentials.
    public static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
    ]

    /// Whether a header's value is a credential.
    public static func isSensitive(header name: String) -> Bool { sensitiveHeaders.contains(name.lowercased()) }

    /// `text` with every secret value replaced, also in the percent-encoded forms a URL gives it; longer
    /// secrets first, so one containing another is hidden whole.
    public static func redact(_ text: String, secrets: Set<String>) -> String {
        var forms: Set<String> = []
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            for allowed in [URLBuilder.unreserved, URLBuilder.allowedLiteral] {
                if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) { forms.insert(encoded) }
            }
        }
        var result = text
        for form in forms.sorted(by: { $0.count > $1.count }) {
            result = result.replacingOccurrences(of: form, with: placeholder)
        }
        return result
    }

    /// Headers with sensitive values and secret substrings replaced.
    public static func redact(_ headers: HTTPHeaders, secrets: Set<String>) -> HTTPHeaders {
        HTTPHeaders(headers.map { field in
            HTTPHeaders.Field(name: field.name,
                              value: isSensitive(header: field.name) ? placeholder : redact(field.value, secrets: secrets))
        })
    }
}

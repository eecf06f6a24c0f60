import CourierSecurity
import Foundation

/// Applies the secret policy before anything is kept: secret headers by name, and any known secret value
/// (tokens, private-environment values) wherever it appears in headers, URLs and body text.
public struct Redactor: Sendable {
    /// What replaces a secret: the policy's one mask.
    public static let mask = SecretPolicy.mask

    /// The secret values to find anywhere, longest first so a secret containing another is masked whole.
    public let secrets: [String]

    /// A redactor for the given secret values (credential headers are always masked).
    public init(secrets: [String] = []) {
        self.secrets = SecretPolicy.searchable(secrets)
    }

    /// A header list with credential headers masked and secret values replaced.
    public func headers(_ headers: [HistoryEntry.Header]) -> [HistoryEntry.Header] {
        headers.map { header in
            SecretPolicy.isSecretHeader(header.name)
                ? HistoryEntry.Header(header.name, SecretPolicy.maskedHeaderValue(header.value))
                : HistoryEntry.Header(header.name, text(header.value))
        }
    }

    /// Text with every secret value replaced.
    public func text(_ value: String) -> String {
        SecretPolicy.masking(value, secrets: secrets)
    }

    /// A URL with secret values, secret query parameters and the password of its user info masked.
    public func url(_ value: String) -> String {
        SecretPolicy.maskedURL(value, secrets: secrets)
    }

    /// Body bytes with every secret's UTF-8 bytes replaced.
    public func body(_ data: Data) -> Data {
        guard !secrets.isEmpty, !data.isEmpty else { return data }
        var result = data
        let mask = Data(Self.mask.utf8)
        for secret in secrets {
            let needle = Data(secret.utf8)
            var output = Data()
            var searchStart = result.startIndex
            var found = false
            while let range = result.range(of: needle, in: searchStart..<result.endIndex) {
                output.append(result[searchStart..<range.lowerBound])
                output.append(mask)
                searchStart = range.upperBound
                found = true
            }
            if found {
                output.append(result[searchStart...])
                result = output
            }
        }
        return result
    }
}

import Foundation

/// Replaces secrets with `•••` before anything is kept: credential headers by name, and any secret value
/// (tokens, private-environment values) wherever it appears in headers, URLs and body text.
public struct Redactor: Sendable {
    /// What replaces a secret.
    public static let mask = "•••"
    /// Headers whose value is always a credential.
    public static let secretHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
    /// Query parameters whose value is a credential by convention.
    public static let secretQueryNames: Set<String> = ["access_token", "api_key", "apikey", "token", "password", "secret"]
    /// Values shorter than this are not redacted as substrings: masking "a" would destroy the text.
    public static let minimumSecretLength = 4

    /// The secret values to find anywhere, longest first so a secret containing another is masked whole.
    public let secrets: [String]

    /// A redactor for the given secret values (credential headers are always masked).
    public init(secrets: [String] = []) {
        self.secrets = Set(secrets.filter { $0.count >= Self.minimumSecretLength }).sorted { $0.count > $1.count }
    }

    /// A header list with credential headers masked and secret values replaced.
    public func headers(_ headers: [HistoryEntry.Header]) -> [HistoryEntry.Header] {
        headers.map { header in
            Self.secretHeaderNames.contains(header.name.lowercased())
                ? HistoryEntry.Header(header.name, Self.mask) : HistoryEntry.Header(header.name, text(header.value))
        }
    }

    /// Text with every secret value replaced.
    public func text(_ value: String) -> String {
        var result = value
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        return result
    }

    /// A URL with secret values and credential query parameters and user info masked.
    public func url(_ value: String) -> String {
        var masked = text(value)
        if var components = URLComponents(string: masked) {
            var changed = false
            if components.password != nil { components.password = Self.mask; changed = true }
            if let items = components.queryItems {
                components.queryItems = items.map { item in
                    guard Self.secretQueryNames.contains(item.name.lowercased()), item.value != nil else { return item }
                    changed = true
                    return URLQueryItem(name: item.name, value: Self.mask)
                }
            }
            if changed, let string = components.string { masked = string }
        }
        return masked
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

import Foundation

/// The one secret policy: which headers, cookies, query parameters and values are secrets, and the one
/// mask that replaces them. Every writer reads it: logs, `--json`, history, cache files, exports,
/// copy-as-curl, crash reports, the explorer, and the redirect follower that decides what crosses origins.
/// `--show-secrets` is the one switch that turns masking off.
public enum SecretPolicy {
    /// What replaces a secret, everywhere.
    public static let mask = "REDACTED"

    /// Headers whose value is always a credential or session state.
    public static let secretHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token",
    ]

    /// Fragments that make any header or query parameter name a secret (`X-Upload-Token`, `db_password`).
    public static let secretNameFragments: [String] = [
        "token", "secret", "password", "passwd", "passphrase", "api-key", "api_key", "apikey", "credential",
        "signature",
    ]

    /// Query parameters whose value is a credential by convention.
    public static let secretQueryNames: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "key", "password", "secret",
        "client_secret", "signature", "sig", "auth", "session",
    ]

    /// Authentication schemes kept in front of a masked value, so output still says what kind it was.
    public static let keptSchemes = ["Bearer ", "Basic ", "Digest ", "Token ", "Negotiate ", "AWS4-HMAC-SHA256 "]

    /// Values shorter than this are not masked as substrings: masking "a" would destroy the text.
    public static let minimumSecretLength = 4

    // MARK: Names

    /// Whether the header named `name` holds a secret. Compared as ASCII bytes: every response header of
    /// every `courier run` request is asked, and Foundation's case folding was a sixth of its time.
    public static func isSecretHeader(_ name: some StringProtocol) -> Bool {
        SecretNames.matches(name, exact: SecretNames.headers)
    }

    /// Whether the query parameter (or cookie, or form field) named `name` holds a secret.
    public static func isSecretParameter(_ name: some StringProtocol) -> Bool {
        SecretNames.matches(name, exact: SecretNames.parameters)
    }

    // MARK: Masking

    /// A secret header value with its scheme kept (`Bearer REDACTED`). A value that only names variables
    /// (`Bearer {{token}}`, as a request is written in its file) holds no secret and is kept.
    public static func maskedHeaderValue(_ value: String) -> String {
        let lower = value.lowercased()
        if let scheme = keptSchemes.first(where: { lower.hasPrefix($0.lowercased()) }) {
            let credentials = value.dropFirst(scheme.count)
            return String(value.prefix(scheme.count)) + (isVariableReference(credentials) ? String(credentials) : mask)
        }
        return isVariableReference(value) ? value : mask
    }

    /// Whether `text` is nothing but `{{name}}` references (and spaces): a template, not a value.
    public static func isVariableReference(_ text: some StringProtocol) -> Bool {
        var rest = Substring(text).drop { $0 == " " }
        guard rest.hasPrefix("{{") else { return false }
        while rest.hasPrefix("{{") {
            guard let close = rest.range(of: "}}") else { return false }
            rest = rest[close.upperBound...].drop { $0 == " " }
        }
        return rest.isEmpty
    }

    /// The secret values worth searching for: long enough, longest first so one containing another is
    /// masked whole.
    public static func searchable(_ secrets: [String]) -> [String] {
        Set(secrets.filter { $0.count >= minimumSecretLength && !isPlainValue($0) }).sorted { $0.count > $1.count }
    }

    /// Values a private environment or `.env` file holds beside its secrets that are never credentials: JSON's
    /// words, URL schemes, `localhost`, and numbers shorter than six digits (ports, ids). Masked as substrings
    /// they would rewrite every `true`, `http` and `3000` of the output and break its JSON and URLs.
    static func isPlainValue(_ value: String) -> Bool {
        if value.utf8.count < 6 && value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return plainWords.contains(value.lowercased())
    }

    private static let plainWords: Set<String> = ["true", "false", "null", "http", "https", "localhost"]

    /// `text` with every known secret value replaced, also in its percent-encoded forms (inlinable, as the
    /// masker's initialiser is).
    @inlinable
    public static func masking(_ text: String, secrets: some Sequence<String>) -> String {
        SecretMasker(secrets: secrets).mask(text)
    }

    /// A secret's spellings: as is, and percent-encoded as a URL carries it (every reserved character
    /// encoded, as a query value from a variable is; or only what a URL cannot hold, as typed text is).
    public static func encodedForms(_ secret: String) -> [String] {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let literal = unreserved.union(":/?#[]@!$&'()*+,;=".utf8)
        var forms = [secret]
        for allowed in [unreserved, literal] {
            var encoded = ""
            for byte in secret.utf8 {
                if allowed.contains(byte) {
                    encoded.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = String(byte, radix: 16, uppercase: true)
                    encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
            if !forms.contains(encoded) { forms.append(encoded) }
        }
        return forms
    }

    /// A URL string with its password, secret query values and known secret values masked. Works on the
    /// text itself, so a URL that does not parse is still masked.
    public static func maskedURL(_ url: String, secrets: some Sequence<String> = [String]()) -> String {
        maskedURL(url, masker: SecretMasker(secrets: secrets))
    }

    /// `maskedURL` with the known secrets already prepared.
    public static func maskedURL(_ url: String, masker: SecretMasker) -> String {
        // The structure first, so a password reads `user:REDACTED`; then known secrets anywhere else.
        masker.mask(maskedURLStructure(url))
    }

    /// `url` with the password of its user info (or a user name alone) and its secret query values masked.
    private static func maskedURLStructure(_ url: String) -> String {
        // Without user info or a query there is nothing here to mask: no string search (run per request).
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") }) else { return url }
        var text = url
        // user:password@ in the authority.
        if let schemeEnd = text.range(of: "://") {
            let authorityEnd = text[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? text.endIndex
            let authority = text[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                let user = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let replacement = userInfo.contains(":") ? "\(user):\(mask)" : mask
                text.replaceSubrange(schemeEnd.upperBound..<at, with: replacement)
            }
        }
        // name=value pairs of the query.
        guard let question = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: question)..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decodedName = name.removingPercentEncodingSafely
            let value = pair[pair.index(after: equals)...]
            guard isSecretParameter(decodedName), !value.isEmpty, !isVariableReference(value) else { return String(pair) }
            return "\(name)=\(mask)"
        }
        text.replaceSubrange(text.index(after: question)..<fragmentStart, with: pairs.joined(separator: "&"))
        return text
    }
}

extension StringProtocol {
    /// Percent-decoding without Foundation, for parameter names (undecodable input is returned as is).
    var removingPercentEncodingSafely: String {
        guard contains("%") else { return String(self) }
        let source = Array(utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < source.count {
            if source[index] == 0x25, index + 2 < source.count,
               let value = UInt8(String(decoding: source[index + 1...index + 2], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

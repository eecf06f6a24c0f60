import Foundation

/// What a request sends as credentials, read from its URL and its header fields, and how one header field is
/// shown. `HTTPRequest.secretValues` gathers these into the request's secret set, which every writer masks.
extension SecretPolicy {
    /// Headers whose value is a URL (where a redirect goes): shown as `maskedURL` shows a URL, so the
    /// password of a `user:password@` and secret query values never print.
    public static let urlHeaderNames: Set<String> = ["location", "content-location"]

    /// Whether the header named `name` holds a URL.
    public static func isURLHeader(_ name: some StringProtocol) -> Bool {
        SecretNames.matches(name, exact: SecretNames.urlHeaders, withFragments: false)
    }

    /// One header field's value as every writer shows it: a secret header's value masked after its scheme
    /// (`Bearer REDACTED`), a URL header's credentials masked, and the known secrets masked in the rest.
    public static func maskedHeaderValue(name: some StringProtocol, value: String, masker: SecretMasker) -> String {
        maskedHeaderValue(name: String(name), value: value, masker: masker)
    }

    /// `maskedHeaderValue` for a name that is a String, as every header field's is: compiled for String, so a
    /// writer in another module runs no generic code per header.
    public static func maskedHeaderValue(name: String, value: String, masker: SecretMasker) -> String {
        switch SecretNames.headerKind(name) {
        case .secret: return maskedHeaderValue(value)
        case .url: return maskedURL(value, masker: masker)
        case .plain: return masker.isEmpty ? value : masker.mask(value)
        }
    }

    /// The secrets `url` carries: the password of its user info (as written and decoded), the `user:password`
    /// pair and its base64, which is the `Authorization: Basic` libcurl sends for it (a user name alone, as a
    /// token is often given, is the secret itself); and the values of its secret query parameters
    /// (`access_token=`), as written and decoded. Works on the text, so a template's URL is read too.
    public static func credentials(inURL url: String) -> [String] {
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") }) else { return [] }
        var found: [String] = []
        if let schemeEnd = url.range(of: "://") {
            let authorityEnd = url[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
            let authority = url[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let parts = authority[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let user = parts[0].removingPercentEncodingSafely
                if parts.count == 2, !parts[1].isEmpty {
                    let password = parts[1].removingPercentEncodingSafely
                    found += [String(parts[1]), password, "\(user):\(password)",
                              Data("\(user):\(password)".utf8).base64EncodedString()]
                } else if !user.isEmpty {
                    found += [String(parts[0]), user, Data("\(user):".utf8).base64EncodedString()]
                }
            }
        }
        guard let question = url.firstIndex(of: "?") else { return found }
        let end = url[question...].firstIndex(of: "#") ?? url.endIndex
        for pair in url[url.index(after: question)..<end].split(separator: "&") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let value = pair[pair.index(after: equals)...]
            guard !value.isEmpty, !isVariableReference(value),
                  isSecretParameter(pair[..<equals].removingPercentEncodingSafely) else { continue }
            found += [String(value), value.removingPercentEncodingSafely]
        }
        return found
    }

    /// The secrets a header field carries when the policy names it secret: its whole value, the credential
    /// after an auth scheme (`Bearer abc`: `abc`), each cookie's value, and for Basic the decoded
    /// `user:password` and the password, which a server may echo back decoded.
    public static func credentials(inHeader name: some StringProtocol, value: String) -> [String] {
        guard isSecretHeader(name) else { return [] }
        var values = [value]
        if let space = value.firstIndex(of: " ") {
            let credential = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
            values.append(credential)
            let isBasic = SecretNames.withLowercased(value[..<space]) { $0.elementsEqual("basic".utf8) }
            if isBasic, let decoded = Data(base64Encoded: credential), let pair = String(data: decoded, encoding: .utf8) {
                values.append(pair)
                if let colon = pair.firstIndex(of: ":") { values.append(String(pair[pair.index(after: colon)...])) }
            }
        }
        // Cookie values one by one: "a=1; b=2".
        if SecretNames.withLowercased(name, { $0.elementsEqual("cookie".utf8) }) {
            for pair in value.split(separator: ";") {
                if let equals = pair.firstIndex(of: "=") { values.append(String(pair[pair.index(after: equals)...])) }
            }
        }
        return values
    }
}

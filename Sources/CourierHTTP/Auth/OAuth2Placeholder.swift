import CourierMessage
import Foundation

/// What stands in a resolved request where a token goes (`{{$auth.token("id")}}`) until `OAuth2Middleware`
/// has the token: letters, digits and `-` only, so it passes through URL building, JSON and headers as it
/// is, with a number drawn once per process so that no file or server can spell it.
public enum OAuth2Placeholder {
    /// Which token of a configuration.
    public enum Kind: String, Sendable, CaseIterable {
        case accessToken = "token"
        /// The OpenID Connect id token (`{{$auth.idToken("id")}}`).
        case idToken = "idtoken"
    }

    private static let nonce = SHA256Digest.hex(Data(PKCE.randomText(bytes: 12).utf8)).prefix(16)

    /// The placeholder of `kind` for configuration `id`.
    public static func text(for id: String, kind: Kind) -> String {
        "courier-\(kind.rawValue)-\(nonce)-" + SHA256Digest.hex(Data(id.utf8))
    }

    /// `request` with every placeholder of `configurations` replaced by its token from `tokens` (by
    /// configuration id): in header values, the URL (percent-encoded where the URL needs it) and an
    /// in-memory body. A missing id token is an error saying the server sent none.
    static func substituting(_ tokens: [String: Credentials], into request: HTTPRequest,
                             configurations: [OAuth2Configuration]) throws(APIError) -> HTTPRequest {
        var replacements: [(String, String)] = []
        for configuration in configurations {
            guard let credentials = tokens[configuration.id] else { continue }
            replacements.append((text(for: configuration.id, kind: .accessToken), credentials.accessToken))
            let idPlaceholder = text(for: configuration.id, kind: .idToken)
            if let idToken = credentials.idToken {
                replacements.append((idPlaceholder, idToken))
            } else if mentions(idPlaceholder, request) {
                throw .signIn(configuration: configuration.id, reason: "the token endpoint sent no id_token for "
                                  + "$auth.idToken (ask for the 'openid' scope)")
            }
        }
        var result = request
        var fields = HTTPHeaders()
        for field in request.headers {
            fields.add(field.name, replaced(field.value, replacements))
        }
        result.headers = fields
        let url = request.url.absoluteString
        if replacements.contains(where: { url.contains($0.0) }) {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+#")
            let encoded = replacements.map { ($0.0, $0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1) }
            if let replacedURL = URL(string: replaced(url, encoded)) { result.url = replacedURL }
        }
        switch request.body {
        case .data(let data): result.body = .data(replaced(data, replacements))
        case .parts(let parts):
            result.body = .parts(parts.map { part in
                if case .data(let data) = part { return .data(replaced(data, replacements)) }
                return part
            })
        case .empty, .file: break
        }
        return result
    }

    private static func mentions(_ placeholder: String, _ request: HTTPRequest) -> Bool {
        if request.url.absoluteString.contains(placeholder) { return true }
        if request.headers.contains(where: { $0.value.contains(placeholder) }) { return true }
        if case .data(let data) = request.body { return data.range(of: Data(placeholder.utf8)) != nil }
        return false
    }

    private static func replaced(_ text: String, _ replacements: [(String, String)]) -> String {
        guard text.contains("courier-") else { return text }
        return replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    private static func replaced(_ data: Data, _ replacements: [(String, String)]) -> Data {
        var data = data
        for (placeholder, value) in replacements {
            let needle = Data(placeholder.utf8)
            let replacement = Data(value.utf8)
            var start = data.startIndex
            while let range = data.range(of: needle, in: start..<data.endIndex) {
                data.replaceSubrange(range, with: replacement)
                start = range.lowerBound + replacement.count
            }
        }
        return data
    }
}

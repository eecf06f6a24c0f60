import CourierHTTP
import Foundation

/// httpyac's `# @jwt [names]`: each JSON Web Token among the top-level string fields of a JSON object
/// response (those whose names the tag's text holds, or all) gets a `NAME_parsed` field beside it holding its
/// decoded claims, so later requests read `{{login.token_parsed.sub}}`. The signature is not checked: the
/// claims are shown and read, never trusted.
enum HttpyacJWT {
    static let tag = "jwt"

    /// The body with the decoded tokens added; nil when it is not a JSON object or holds no token.
    static func expanded(_ body: ResponseBody, names: String) -> Data? {
        guard body.size <= 16 << 20, let data = try? body.readAll(),
              var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        var changed = false
        for (key, value) in object where names.isEmpty || names.contains(key) {
            guard let token = value as? String, let claims = claims(of: token) else { continue }
            object[key + "_parsed"] = claims
            changed = true
        }
        guard changed else { return nil }
        return try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    /// The payload of `token` when it is a JWT (`header.payload.signature`, base64url, both JSON objects).
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = decoded(parts[0]), let payload = decoded(parts[1]),
              (try? JSONSerialization.jsonObject(with: header)) is [String: Any] else { return nil }
        return (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }

    private static func decoded(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }
}

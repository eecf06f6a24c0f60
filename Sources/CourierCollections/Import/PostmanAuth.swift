import CourierBody
import CourierHTTP
import Foundation

/// Postman `auth` objects Courier signs in with, written as the lines `courier run` reads: `digest` and
/// `ntlm` as their `Authorization` shorthands, `awsv4` as httpyac's `Authorization: AWS …`, `oauth1` as
/// Courier's `Authorization: OAuth1 …` (signed when sent), and `oauth2` as
/// its token when the collection holds one, else as httpyac's `Authorization: oauth2 GRANT postman` with the
/// `postman_tokenEndpoint`, `postman_clientId`… variables beside the request.
enum PostmanAuth {
    /// An item's own `auth`: nil when it has none, or says `inherit` (or is null), so its parent's applies.
    static func own(_ auth: JSONValue?) -> JSONValue? {
        guard let auth, auth != .null, auth["type"]?.stringValue != "inherit" else { return nil }
        return auth
    }

    /// The headers and variables for auth of `type`, read through `field`; nil for a type not handled here.
    static func lines(_ type: String, field: (String) -> String?)
        -> (headers: [(String, String)], variables: [(String, String)])? {
        func value(_ key: String) -> String { field(key) ?? "" }
        switch type {
        case "digest":
            return ([("Authorization", "Digest \(value("username")) \(value("password"))")], [])
        case "ntlm":
            let domain = value("domain")
            let user = domain.isEmpty ? value("username") : "\(domain)\\\(value("username"))"
            return ([("Authorization", "NTLM \(user) \(value("password"))")], [])
        case "awsv4":
            var header = "AWS \(value("accessKey")) \(value("secretKey"))"
            for (key, name) in [("sessionToken", "token"), ("region", "region"), ("service", "service")] {
                if let text = field(key), !text.isEmpty { header += " \(name):\(text)" }
            }
            return ([("Authorization", header)], [])
        case "oauth2":
            if let token = field("accessToken"), !token.isEmpty {
                let prefix = field("headerPrefix").flatMap { $0.isEmpty ? nil : $0 } ?? "Bearer"
                return ([("Authorization", "\(prefix) \(token)")], [])
            }
            let grants = ["client_credentials": "client_credentials", "password_credentials": "password",
                          "authorization_code": "code", "authorization_code_with_pkce": "code pkce"]
            guard let grant = grants[field("grant_type") ?? "authorization_code"] else { return nil }
            let names = [("accessTokenUrl", "tokenEndpoint"), ("authUrl", "authorizationEndpoint"),
                         ("clientId", "clientId"), ("clientSecret", "clientSecret"), ("scope", "scope"),
                         ("username", "username"), ("password", "password"), ("redirect_uri", "redirectUri")]
            var variables = names.compactMap { key, name in field(key).flatMap { $0.isEmpty ? nil : ("postman_\(name)", $0) } }
            if field("client_authentication") == "body" { variables.append(("postman_useAuthorizationHeader", "false")) }
            return ([("Authorization", "oauth2 \(grant) postman")], variables)
        case "oauth1":
            let written = (field("signatureMethod") ?? "HMAC-SHA1").uppercased()
            guard let method = OAuth1Configuration.Method(rawValue: written),
                  field("addParamsToHeader") != "false", !value("consumerKey").isEmpty else { return nil }
            var header = "OAuth1 \(value("consumerKey")) \(value("consumerSecret"))"
            for key in ["token", "tokenSecret", "realm", "callback", "verifier"] {
                if let text = field(key), !text.isEmpty { header += " \(key):\(text)" }
            }
            if method != .hmacSHA1 { header += " method:\(method.rawValue)" }
            return ([("Authorization", header)], [])
        default:
            return nil
        }
    }

    /// What a user must do for an auth type Courier does not convert: said on the import's `note:` line.
    static func advice(_ type: String, field: (String) -> String?) -> String {
        switch type {
        case "oauth1" where field("addParamsToHeader") == "false":
            return "Courier signs OAuth 1.0a in the Authorization header only; if the server takes that, write "
                + "'Authorization: OAuth1 KEY SECRET token:T tokenSecret:S' on the request"
        case "oauth1" where (field("consumerKey") ?? "").isEmpty:
            return "it names no consumer key; write 'Authorization: OAuth1 KEY SECRET token:T tokenSecret:S' "
                + "on the request"
        case "oauth1":
            return "its signature method '\(field("signatureMethod") ?? "")' is not one Courier signs with "
                + "(HMAC-SHA1, HMAC-SHA256, PLAINTEXT); sign it in a pre-request script with crypto-js"
        case "hawk":
            return "compute the Hawk Authorization header in a pre-request script (crypto-js HMAC-SHA256) "
                + "and set it with pm.request.headers.upsert"
        case "akamai", "edgegrid":
            return "sign it with an EdgeGrid pre-request script (crypto-js HMAC-SHA256), or send the "
                + "Authorization header Akamai's tools make"
        case "asap", "jwt":
            return "make the JWT elsewhere (or in a pre-request script with crypto-js) and send it as "
                + "'Authorization: Bearer {{jwt}}' with jwt in the private environment file"
        default:
            return "add the Authorization header it would make by hand, or in a pre-request script"
        }
    }
}

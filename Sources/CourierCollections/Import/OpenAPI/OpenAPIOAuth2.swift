import Foundation

/// An OpenAPI `oauth2` or `openIdConnect` security scheme as a JetBrains `Security.Auth` configuration, so
/// that its requests send `Authorization: Bearer {{$auth.token("scheme")}}` and Courier signs in itself.
/// The grant is the first flow Courier runs (client credentials, authorization code, password, device
/// authorization); the client id and secret are left empty in the private environment for the user to fill.
struct OpenAPIOAuth2 {
    /// The configuration's fields for `http-client.env.json` (`Type`, `Grant Type`, URLs, `Scope`).
    var shared: [String: String]
    /// Its empty `Client ID` and `Client Secret`, for `http-client.private.env.json`.
    var secrets: [String: String]
    /// Why it may need a hand: a discovery document to read, a flow Courier does not run.
    var note: String?

    /// The configuration for `scheme` (a 3.x `flows` object or a 2.0 `flow`), or nil when it has no flow
    /// Courier runs (implicit only).
    init?(name: String, scheme: [String: Any]) {
        secrets = ["Client ID": "", "Client Secret": ""]
        if (scheme["type"] as? String)?.lowercased() == "openidconnect" {
            let discovery = scheme["openIdConnectUrl"] as? String ?? "its discovery document"
            shared = ["Type": "OAuth2", "Grant Type": "Authorization Code", "Auth URL": "", "Token URL": ""]
            note = "OpenID Connect '\(name)': fill in its Auth URL and Token URL from \(discovery)"
            return
        }
        // OpenAPI 3.x names the flows; Swagger 2.0 has one `flow` with its URLs beside it.
        let flows: [(String, [String: Any])] = if let named = scheme["flows"] as? [String: Any] {
            named.compactMap { key, value in (value as? [String: Any]).map { (key, $0) } }
        } else {
            [(Self.swagger2Flows[scheme["flow"] as? String ?? ""] ?? "", scheme)]
        }
        let grants = [("clientCredentials", "Client Credentials"), ("authorizationCode", "Authorization Code"),
                      ("password", "Password"), ("deviceAuthorization", "Device Authorization")]
        guard let (flowName, grant) = grants.first(where: { grant in flows.contains { $0.0 == grant.0 } }),
              let flow = flows.first(where: { $0.0 == flowName })?.1 else { return nil }
        shared = ["Type": "OAuth2", "Grant Type": grant, "Token URL": flow["tokenUrl"] as? String ?? ""]
        if let url = flow["authorizationUrl"] as? String { shared["Auth URL"] = url }
        if let url = flow["deviceAuthorizationUrl"] as? String { shared["Device Auth URL"] = url }
        if let scopes = flow["scopes"] as? [String: Any], !scopes.isEmpty {
            // A scope is data; one that would read as a variable is left for the user to write.
            let scope = scopes.keys.sorted().joined(separator: " ")
            if scope.contains("{{") {
                note = "OAuth2 '\(name)': its scopes hold '{{' and were left out"
            } else {
                shared["Scope"] = scope
            }
        }
        if flowName == "password" { secrets["Username"] = ""; secrets["Password"] = "" }
    }

    /// `fields` as environment values: URLs as data (a `{{` in one kept as text), the rest as they are.
    static func spelled(_ fields: [String: String]) -> [String: String] {
        fields.reduce(into: [:]) { result, field in
            result[field.key] = field.key.hasSuffix("URL") ? ImportWriter.environmentURL(field.value) : field.value
        }
    }

    /// Swagger 2.0's flow names, by their OpenAPI 3 names.
    static let swagger2Flows = ["application": "clientCredentials", "accessCode": "authorizationCode",
                                "password": "password", "implicit": "implicit"]
}

import Foundation

/// What one security requirement adds to a request: headers, query items and cookies whose values are
/// variables; secret variables go to the private environment file, OAuth 2.0 sign-in configurations to both.
struct OpenAPISecurity {
    var headers: [ImportedRequest.Field] = []
    var query: [(String, ImportedText)] = []
    var cookies: [(String, ImportedText)] = []
    /// Variable → empty placeholder, for `http-client.private.env.json`.
    var secrets: [String: String] = [:]
    /// `Security.Auth` configurations (scheme → fields) for `http-client.env.json` and, their client id and
    /// secret, for `http-client.private.env.json`.
    var authShared: [String: [String: String]] = [:]
    var authSecrets: [String: [String: String]] = [:]

    /// The schemes of `requirement` (scheme name → scopes) from `components.securitySchemes` (3.x) or
    /// `securityDefinitions` (2.0).
    static func make(requirement: [String: Any], document: inout OpenAPIDocument) -> OpenAPISecurity {
        var result = OpenAPISecurity()
        let schemes = document.version == .swagger2
            ? document.root["securityDefinitions"] as? [String: Any]
            : (document.root["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
        for name in requirement.keys.sorted() {
            guard let scheme = document.resolve(schemes?[name]) else {
                document.note("security scheme '\(name)' is not defined")
                continue
            }
            result.add(name: OpenAPIImporter.variableName(name), scheme: scheme, document: &document)
        }
        return result
    }

    private mutating func add(name: String, scheme: [String: Any], document: inout OpenAPIDocument) {
        let type = (scheme["type"] as? String ?? "").lowercased()
        let httpScheme = (scheme["scheme"] as? String ?? "").lowercased()
        switch type {
        case "http" where httpScheme == "basic", "basic":
            // JetBrains' two-word form; Courier encodes it when sending.
            headers.append(.init("Authorization", .data("Basic ") + .variable("username") + .data(" ")
                                                      + .variable("password")))
            secrets["username"] = ""
            secrets["password"] = ""
        case "http" where httpScheme == "bearer":
            headers.append(.init("Authorization", .data("Bearer ") + .variable("token")))
            secrets["token"] = ""
        case "http":
            headers.append(.init("Authorization", .data("\(scheme["scheme"] as? String ?? "Bearer") ") + .variable("token")))
            secrets["token"] = ""
            document.note("HTTP auth scheme '\(httpScheme)' became an Authorization header with {{token}}")
        case "apikey":
            let parameter = scheme["name"] as? String ?? name
            let value = ImportedText.variable(name)
            switch (scheme["in"] as? String ?? "header").lowercased() {
            case "query": query.append((parameter, value))
            case "cookie": cookies.append((parameter, value))
            default: headers.append(.init(parameter, value))
            }
            secrets[name] = ""
        case "oauth2", "openidconnect":
            guard let configuration = OpenAPIOAuth2(name: name, scheme: scheme) else {
                headers.append(.init("Authorization", .data("Bearer ") + .variable("oauthToken")))
                secrets["oauthToken"] = ""
                document.note("OAuth2 scheme '\(name)' has only the implicit flow: put a token in oauthToken")
                return
            }
            headers.append(.init("Authorization", .data("Bearer ") + .variable("$auth.token(\"\(name)\")")))
            authShared[name] = configuration.shared
            authSecrets[name] = configuration.secrets
            if let note = configuration.note { document.note(note) }
        default:
            document.note("security scheme type '\(type)' is not supported")
        }
    }
}

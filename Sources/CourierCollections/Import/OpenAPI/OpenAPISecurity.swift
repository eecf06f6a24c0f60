import Foundation

/// What one security requirement adds to a request: headers, query items and cookies whose values are
/// variables; secret variables go to the private environment file, the rest to the shared one.
struct OpenAPISecurity {
    var headers: [ImportedRequest.Field] = []
    var query: [(String, ImportedText)] = []
    var cookies: [(String, ImportedText)] = []
    /// Variable → empty placeholder, for `http-client.private.env.json`.
    var secrets: [String: String] = [:]
    /// Variable → value, for `http-client.env.json` (token URLs, client ids).
    var shared: [String: String] = [:]
    /// Extra requests (an OAuth2 client-credentials token request).
    var tokenRequests: [ImportedRequest] = []

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
        case "oauth2":
            headers.append(.init("Authorization", .data("Bearer ") + .variable("oauthToken")))
            secrets["oauthToken"] = ""
            let flows = scheme["flows"] as? [String: Any]
            let tokenURL = (flows?["clientCredentials"] as? [String: Any])?["tokenUrl"] as? String
                ?? (scheme["flow"] as? String == "application" ? scheme["tokenUrl"] as? String : nil)
            if let tokenURL {
                shared["tokenUrl"] = tokenURL
                secrets["clientId"] = ""
                secrets["clientSecret"] = ""
                var token = ImportedRequest(name: "\(name)Token",
                                            title: "Client-credentials token for \(name): copy access_token into oauthToken",
                                            method: "POST", url: .variable("tokenUrl"))
                token.headers = [.init("Content-Type", .data("application/x-www-form-urlencoded"))]
                token.body = .text(.data("grant_type=client_credentials&client_id=") + .variable("clientId")
                                   + .data("&client_secret=") + .variable("clientSecret"))
                tokenRequests.append(token)
            } else {
                document.note("OAuth2 flows other than client credentials need a token in oauthToken")
            }
        case "openidconnect":
            headers.append(.init("Authorization", .data("Bearer ") + .variable("oauthToken")))
            secrets["oauthToken"] = ""
            document.note("OpenID Connect became an Authorization header with {{oauthToken}}")
        default:
            document.note("security scheme type '\(type)' is not supported")
        }
    }
}

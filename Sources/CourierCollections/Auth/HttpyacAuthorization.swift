import CourierHTTP
import Foundation

/// httpyac's sign-in headers: `Authorization: oauth2 [FLOW] [PREFIX]` (or `openid …`), configured by the
/// `PREFIX_tokenEndpoint`, `PREFIX_clientId`… variables (PREFIX `oauth2` by default), and
/// `Authorization: AWS ACCESS_ID ACCESS_KEY [token:T] [region:R] [service:S]` for AWS Signature V4.
enum HttpyacAuthorization {
    /// What the header asks for.
    enum SignIn {
        case oauth2(OAuth2Configuration)
        case awsSigV4(AWSSigV4Configuration)
    }

    /// The sign-in `value` names, or nil when it is not one of httpyac's; `variable` reads a variable (nil when
    /// none has the name). A header that names a flow but lacks what it needs is an error saying what to set.
    static func signIn(_ value: String, environment: String, request: String,
                       variable: (String) throws(CollectionError) -> String?) throws(CollectionError) -> SignIn? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let scheme = words.first?.lowercased() else { return nil }
        if scheme == "aws", words.count >= 3 { return .awsSigV4(try aws(words, request: request)) }
        guard scheme == "oauth2" || scheme == "openid" else { return nil }
        let flows: [String: OAuth2Configuration.Grant] = [
            "client_credentials": .clientCredentials, "password": .password, "authorization_code": .authorizationCode,
            "code": .authorizationCode, "device_code": .deviceCode, "device": .deviceCode,
        ]
        var rest = Array(words.dropFirst())
        var grant = OAuth2Configuration.Grant.clientCredentials
        if let first = rest.first {
            if let named = flows[first.lowercased()] {
                grant = named
                rest.removeFirst()
            } else if first.lowercased() == "implicit" {
                throw .unsupported(request: request, reason: "httpyac's implicit flow is not supported (it hands the "
                                       + "token to a browser page); use the authorization code with PKCE")
            }
        }
        var usesPKCE = false
        if rest.first?.lowercased() == "pkce" { usesPKCE = true; rest.removeFirst() }
        let prefix = rest.first ?? "oauth2"
        func field(_ name: String) throws(CollectionError) -> String? {
            let found = try variable("\(prefix)_\(name)")?.trimmingCharacters(in: .whitespaces)
            return found?.isEmpty == false ? found : nil
        }
        guard let tokenText = try field("tokenEndpoint"), let tokenURL = URL(string: tokenText), tokenURL.host != nil else {
            throw .unsupported(request: request, reason: "'Authorization: \(value)' needs the variable "
                                   + "\(prefix)_tokenEndpoint (and \(prefix)_clientId)")
        }
        var configuration = OAuth2Configuration(id: prefix, environment: environment, grant: grant, tokenURL: tokenURL,
                                                clientID: try field("clientId") ?? "")
        configuration.clientSecret = try field("clientSecret")
        configuration.scope = try field("scope")
        configuration.username = try field("username")
        configuration.password = try field("password")
        configuration.authorizationURL = try field("authorizationEndpoint").flatMap(URL.init(string:))
        configuration.deviceAuthorizationURL = try field("deviceCodeEndpoint").flatMap(URL.init(string:))
        configuration.redirectURL = try field("redirectUri").flatMap(URL.init(string:))
        let pkceVariable = try field("usePkce")
        configuration.usesPKCE = usesPKCE || pkceVariable == "true" || configuration.clientSecret == nil
        configuration.clientAuthentication = configuration.clientSecret == nil ? .none
            : ((try field("useAuthorizationHeader")) == "false" ? .body : .basic)
        for name in ["audience", "resource"] {
            if let extra = try field(name) { configuration.parameters.append(.init(name: name, value: extra)) }
        }
        return .oauth2(configuration)
    }

    /// `AWS ID KEY token:T region:R service:S`; region and service from a `SERVICE.REGION.amazonaws.com` host
    /// when the header does not name them.
    private static func aws(_ words: [String], request: String) throws(CollectionError) -> AWSSigV4Configuration {
        var options: [String: String] = [:]
        for word in words.dropFirst(3) {
            guard let colon = word.firstIndex(of: ":") else { continue }
            options[word[..<colon].lowercased()] = String(word[word.index(after: colon)...])
        }
        return AWSSigV4Configuration(accessKey: words[1], secretKey: words[2], region: options["region"] ?? "",
                                     service: options["service"] ?? "", sessionToken: options["token"])
    }

    /// The region and service of an AWS host (`cognito-idp.eu-central-1.amazonaws.com`).
    static func regionAndService(host: String) -> (region: String, service: String)? {
        let parts = host.lowercased().split(separator: ".")
        guard parts.count >= 4, parts.suffix(2) == ["amazonaws", "com"] else { return nil }
        return (String(parts[parts.count - 3]), String(parts[0]))
    }
}

extension Resolver {
    /// httpyac's `oauth2 …`/`openid …`/`AWS …` Authorization value, its variables read through `interpolator`.
    static func httpyacSignIn(_ value: String, template: RequestTemplate, context: VariableContext,
                              interpolator: inout Interpolator) throws(CollectionError) -> HttpyacAuthorization.SignIn? {
        try HttpyacAuthorization.signIn(value, environment: context.environment.name ?? CookieJarStore.defaultJarName,
                                        request: template.displayName) { (name: String) throws(CollectionError) -> String? in
            do throws(CollectionError) {
                return try interpolator.expand("{{\(name)}}")
            } catch {
                if case .unknownVariable = error { return nil }
                throw error
            }
        }
    }

    /// An `AWS …` configuration with its region and service, from the host when the header named none.
    static func locatedSigV4(_ configuration: AWSSigV4Configuration, url: URL,
                             request: String) throws(CollectionError) -> AWSSigV4Configuration {
        var located = configuration
        if located.region.isEmpty || located.service.isEmpty,
           let found = HttpyacAuthorization.regionAndService(host: url.host ?? "") {
            if located.region.isEmpty { located.region = found.region }
            if located.service.isEmpty { located.service = found.service }
        }
        guard !located.region.isEmpty, !located.service.isEmpty else {
            throw .unsupported(request: request, reason: "'Authorization: AWS …' needs region:REGION and "
                                   + "service:SERVICE for a host that is not SERVICE.REGION.amazonaws.com")
        }
        return located
    }
}

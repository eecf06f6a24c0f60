import CourierHTTP
import Foundation

/// The JetBrains HTTP Client's `Security.Auth` configurations of an environment
/// (`{"dev": {"Security": {"Auth": {"sso": {"Type": "OAuth2", "Grant Type": "Client Credentials", …}}}}}`),
/// read from the environment's values (the public and private files merged, a private `Client Secret`
/// included) into `OAuth2Configuration`s.
enum SecurityAuth {
    /// Where the configurations sit among the environment's flattened names.
    static let prefix = "Security.Auth."

    /// The fields Courier reads, as JetBrains spells them.
    enum Field {
        static let type = "Type"
        static let grant = "Grant Type"
        static let authURL = "Auth URL"
        static let tokenURL = "Token URL"
        static let deviceAuthURL = "Device Auth URL"
        static let redirectURL = "Redirect URL"
        static let clientID = "Client ID"
        static let clientSecret = "Client Secret"
        static let clientCredentials = "Client Credentials"
        static let scope = "Scope"
        static let pkce = "PKCE"
        static let username = "Username"
        static let password = "Password"
        static let parameters = "Custom Request Parameters"
        static let useIDToken = "Use ID Token"
    }

    /// The configuration `id` of `environment`; `expand` substitutes the variables its values may hold.
    static func configuration(_ id: String, environment: Environment,
                              expand: (String) throws(CollectionError) -> String) throws(CollectionError)
        -> Result<OAuth2Configuration, Problem> {
        let base = prefix + id + "."
        func raw(_ field: String) -> String? { environment.values[base + field]?.value }
        func value(_ field: String) throws(CollectionError) -> String? {
            guard let text = raw(field) else { return nil }
            let expanded = try expand(text).trimmingCharacters(in: .whitespaces)
            return expanded.isEmpty ? nil : expanded
        }
        guard environment.values.keys.contains(where: { $0.hasPrefix(base) }) else {
            let known = ids(in: environment)
            let where_ = environment.name.map { "environment '\($0)'" } ?? "the environment (none chosen; pass --env)"
            return .failure(Problem("no Security.Auth configuration '\(id)' in \(where_)"
                + (known.isEmpty ? "" : "; known: " + known.joined(separator: ", "))))
        }
        if let type = try value(Field.type), type.lowercased() != "oauth2" {
            return .failure(Problem("Security.Auth '\(id)' has Type '\(type)'; Courier signs in with OAuth2"))
        }
        guard let grantText = try value(Field.grant) else {
            return .failure(Problem("Security.Auth '\(id)' has no 'Grant Type'"))
        }
        guard let grant = grant(grantText) else {
            return .failure(Problem("Security.Auth '\(id)': Grant Type '\(grantText)' is not one Courier runs "
                + "(Client Credentials, Password, Authorization Code, Device Authorization)"))
        }
        guard let tokenText = try value(Field.tokenURL), let tokenURL = URL(string: tokenText), tokenURL.host != nil else {
            return .failure(Problem("Security.Auth '\(id)' needs a 'Token URL'"))
        }
        let environmentName = environment.name ?? CookieJarStore.defaultJarName
        var configuration = OAuth2Configuration(id: id, environment: environmentName, grant: grant, tokenURL: tokenURL,
                                                clientID: try value(Field.clientID) ?? "")
        configuration.clientSecret = try value(Field.clientSecret)
        configuration.scope = try value(Field.scope)
        configuration.username = try value(Field.username)
        configuration.password = try value(Field.password)
        configuration.authorizationURL = try value(Field.authURL).flatMap(URL.init(string:))
        configuration.deviceAuthorizationURL = try value(Field.deviceAuthURL).flatMap(URL.init(string:))
        configuration.redirectURL = try value(Field.redirectURL).flatMap(URL.init(string:))
        if let pkce = raw(Field.pkce)?.lowercased(), pkce == "false" { configuration.usesPKCE = false }
        switch try value(Field.clientCredentials)?.lowercased() {
        case "in body"?, "body"?: configuration.clientAuthentication = .body
        case "none"?: configuration.clientAuthentication = .none
        default: configuration.clientAuthentication = configuration.clientSecret == nil ? .none : .basic
        }
        configuration.parameters = try parameters(base + Field.parameters + ".", environment: environment,
                                                  expand: expand)
        return .success(configuration)
    }

    /// Why a configuration cannot be used, said at the line that names it.
    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The names of the environment's configurations.
    static func ids(in environment: Environment) -> [String] {
        var ids = Set<String>()
        for key in environment.values.keys where key.hasPrefix(prefix) {
            let rest = key.dropFirst(prefix.count)
            for field in [Field.type, Field.grant, Field.clientID, Field.tokenURL] where rest.hasSuffix("." + field) {
                ids.insert(String(rest.dropLast(field.count + 1)))
            }
        }
        return ids.sorted()
    }

    /// JetBrains' grant names, also written as RFC 6749 spells them.
    static func grant(_ text: String) -> OAuth2Configuration.Grant? {
        let key = text.lowercased().filter { $0.isLetter }
        switch key {
        case "clientcredentials": return .clientCredentials
        case "password": return .password
        case "authorizationcode": return .authorizationCode
        case "deviceauthorization", "devicecode", "device", "urnietfparamsoauthgranttypedevicecode": return .deviceCode
        default: return nil
        }
    }

    /// `Custom Request Parameters`: `"audience": "api"` goes everywhere; `{"Value": "x", "Use": "In Token
    /// Request"}` where it says.
    private static func parameters(_ base: String, environment: Environment,
                                   expand: (String) throws(CollectionError) -> String) throws(CollectionError)
        -> [OAuth2Configuration.Parameter] {
        var result: [OAuth2Configuration.Parameter] = []
        let names = Set(environment.values.keys.filter { $0.hasPrefix(base) }.map { key -> String in
            let rest = key.dropFirst(base.count)
            return String(rest.prefix { $0 != "." })
        })
        for name in names.sorted() {
            let whole = environment.values[base + name]?.value ?? ""
            if let value = environment.values[base + name + ".Value"]?.value {
                let use = environment.values[base + name + ".Use"]?.value.lowercased() ?? ""
                let where_: OAuth2Configuration.Parameter.Use = use.contains("token") ? .tokenRequest
                    : (use.contains("auth") ? .authorizationRequest : .everywhere)
                result.append(.init(name: name, value: try expand(value), use: where_))
            } else if !whole.hasPrefix("{") {
                result.append(.init(name: name, value: try expand(whole)))
            }
        }
        return result
    }
}

import Foundation

/// How to get an OAuth 2.0 access token: one `Security.Auth` configuration of an environment, or what
/// httpyac's `oauth2_*` variables, a Postman `oauth2` object or an OpenAPI flow say. A value: building one
/// does no I/O.
public struct OAuth2Configuration: Sendable, Hashable {
    /// The grant the token is obtained with (RFC 6749 section 4, RFC 8628).
    public enum Grant: String, Sendable, Hashable, CaseIterable {
        case clientCredentials = "client_credentials"
        case password
        case authorizationCode = "authorization_code"
        case deviceCode = "urn:ietf:params:oauth:grant-type:device_code"

        /// How the grant is named in messages and the log.
        public var displayName: String {
            switch self {
            case .clientCredentials: "client credentials"
            case .password: "password"
            case .authorizationCode: "authorization code"
            case .deviceCode: "device code"
            }
        }
    }

    /// How the client proves itself to the token endpoint (JetBrains' `Client Credentials`).
    public enum ClientAuthentication: String, Sendable, Hashable {
        /// `Authorization: Basic` made of the client's id and secret (RFC 6749 section 2.3.1).
        case basic
        /// `client_id` and `client_secret` in the form body.
        case body
        /// `client_id` alone in the body: a public client.
        case none
    }

    /// One extra parameter (JetBrains' `Custom Request Parameters`: `audience`, `resource`…).
    public struct Parameter: Sendable, Hashable {
        /// Which requests carry it.
        public enum Use: String, Sendable, Hashable {
            case everywhere, tokenRequest, authorizationRequest
        }

        public var name: String
        public var value: String
        public var use: Use

        public init(name: String, value: String, use: Use = .everywhere) {
            self.name = name
            self.value = value
            self.use = use
        }
    }

    /// The configuration's name (`{{$auth.token("id")}}`).
    public var id: String
    /// The environment it came from: tokens are kept per environment and configuration.
    public var environment: String
    public var grant: Grant
    public var tokenURL: URL
    /// Where the user signs in (authorization code grant).
    public var authorizationURL: URL?
    /// Where the device grant starts (RFC 8628 section 3.1).
    public var deviceAuthorizationURL: URL?
    public var clientID: String
    public var clientSecret: String?
    public var scope: String?
    /// PKCE with S256 for the authorization code grant (RFC 7636); on unless switched off.
    public var usesPKCE = true
    /// The redirect the authorization server sends the code to; it must name this machine's loopback
    /// interface (RFC 8252). Nil: `http://127.0.0.1:PORT/callback` on a port the system picks.
    public var redirectURL: URL?
    public var username: String?
    public var password: String?
    public var clientAuthentication = ClientAuthentication.basic
    public var parameters: [Parameter] = []

    public init(id: String, environment: String, grant: Grant, tokenURL: URL, clientID: String) {
        self.id = id
        self.environment = environment
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientID = clientID
    }

    /// What identifies the tokens this configuration gets: the same name with another endpoint, client,
    /// grant, scope or user gets tokens of its own.
    public var cacheKey: String {
        let parts = [environment, id, grant.rawValue, tokenURL.absoluteString, authorizationURL?.absoluteString ?? "",
                     clientID, scope ?? "", username ?? ""]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    /// The values of the configuration that are secrets wherever they appear.
    public var secrets: Set<String> {
        Set([clientSecret, password].compactMap { $0 }.filter { !$0.isEmpty })
    }

    /// The custom parameters a request of `use` carries.
    func parameters(for use: Parameter.Use) -> [Parameter] {
        parameters.filter { $0.use == .everywhere || $0.use == use }
    }
}

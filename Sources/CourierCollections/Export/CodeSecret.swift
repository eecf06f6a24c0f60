import Foundation

/// A secret the exported code does not contain: Swift takes it as a function parameter, the other
/// languages read it from an environment variable named after its variable or header.
public struct CodeSecret: Sendable, Hashable {
    /// Where the value came from, which names it and says what it is in the code's comment.
    public enum Source: Sendable, Hashable {
        /// A private environment value, a secret script global or `{{$processEnv NAME}}`.
        case variable(String)
        /// The credentials of a header the secret policy names (`Authorization`, `X-Api-Key`).
        case header(String)
        /// A query parameter the secret policy names (`api_key`, `access_token`).
        case queryParameter(String)
        /// The URL's `user:password@`.
        case password
        /// A user name standing alone in the URL (`https://TOKEN@host`), a credential by convention.
        case user
        /// Another value the request's secret set holds (a credential sent elsewhere in the request).
        case other
    }

    public var source: Source
    /// The value Courier sends. Generators never write it; it is here for the check that they did not.
    public var value: String
    /// The environment variable the code reads (`TOKEN`, `AUTHORIZATION`), unique in the request.
    public var environmentName: String
    /// The Swift parameter (`token`, `authorization`), unique in the request.
    public var parameterName: String

    /// The name the source gives: the variable, header or parameter name.
    public var sourceName: String {
        switch source {
        case .variable(let name), .header(let name), .queryParameter(let name): name
        case .password: "password"
        case .user: "user"
        case .other: "secret"
        }
    }

    /// What the value is, for the comment beside its name: "the private value 'token'".
    public var about: String {
        switch source {
        case .variable(let name): "the private value '\(name)'"
        case .header(let name): "the \(name) header's credentials"
        case .queryParameter(let name): "the query parameter '\(name)'"
        case .password: "the password in the URL"
        case .user: "the user name in the URL"
        case .other: "a value Courier masks as a secret"
        }
    }
}

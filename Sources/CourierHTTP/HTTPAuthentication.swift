/// Credentials the transport answers a server's challenge with, for schemes that cannot be written as a
/// header up front (Digest needs the server's nonce). Never printed: the user and password are secrets.
public struct HTTPAuthentication: Sendable, Hashable {
    /// The challenge-response schemes Courier supports.
    public enum Scheme: Sendable, Hashable {
        /// RFC 7616 Digest access authentication.
        case digest
    }

    public var scheme: Scheme
    public var user: String
    public var password: String

    public init(scheme: Scheme, user: String, password: String) {
        self.scheme = scheme
        self.user = user
        self.password = password
    }
}

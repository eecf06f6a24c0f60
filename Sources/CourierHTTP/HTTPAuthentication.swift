/// Credentials the transport answers a server's challenge with, for schemes that cannot be written as a
/// header up front (Digest needs the server's nonce, NTLM and Negotiate a handshake). Never printed: the
/// user and password are secrets.
public struct HTTPAuthentication: Sendable, Hashable {
    /// The challenge-response schemes Courier supports, all answered by libcurl.
    public enum Scheme: String, Sendable, Hashable {
        /// RFC 7617 Basic, sent up front (`courier send --user` without a scheme, as curl does).
        case basic
        /// RFC 7616 Digest access authentication.
        case digest
        /// Microsoft's NTLM handshake over HTTP.
        case ntlm
        /// SPNEGO (RFC 4559): Kerberos through GSS-API, with the credentials of the user's ticket cache.
        case negotiate
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

/// What went wrong with the client certificate when a TLS handshake failed over it, so callers react to the
/// case (the explorer forgets a passphrase that did not work) rather than to the words of the message.
public enum ClientCertificateProblem: Sendable, Hashable, CaseIterable {
    /// The certificate presented could not be loaded: a wrong or missing passphrase, a key that does not
    /// match it, another format (libcurl's CURLE_SSL_CERTPROBLEM).
    case unusable
    /// The server requires a client certificate and none was presented (its TLS alert).
    case required
    /// The server refused the certificate presented: one it does not accept (its TLS alert).
    case refused
}

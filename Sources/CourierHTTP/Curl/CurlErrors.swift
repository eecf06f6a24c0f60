import CCurl

/// How libcurl's result codes map onto `APIError`, as named sets. Curl's own message is kept.
enum CurlErrors {
    /// No connection could be made: the network, DNS or the server's port is unreachable.
    static let offline: Set<UInt32> = codes(CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY,
                                            CURLE_COULDNT_CONNECT)
    /// The attempt's own timeout (or the connect timeout) ran out.
    static let timedOut: Set<UInt32> = codes(CURLE_OPERATION_TIMEDOUT)
    /// Certificates, handshakes and TLS configuration: never bypassed silently.
    static let tls: Set<UInt32> = codes(
        CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
        CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
        CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED)
    /// The URL cannot be sent as written.
    static let badURL: Set<UInt32> = codes(CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL)
    /// Aborted by one of our own callbacks (a size limit or a disk error reported separately).
    static let aborted: Set<UInt32> = codes(CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR)

    /// The `APIError` for a failed transfer. Everything unlisted (a dropped connection, a reply
    /// that is not HTTP) is a protocol error, which the retry policy treats as a transport failure.
    /// `afterConnecting`: the server was reached, so "unsupported protocol" is about its reply (a status
    /// line that is not HTTP), not about the URL's scheme.
    static func map(_ code: CURLcode, message: String, afterConnecting: Bool = false) -> APIError {
        let raw = code.rawValue
        if afterConnecting && raw == CURLE_UNSUPPORTED_PROTOCOL.rawValue { return .protocolError(underlying: message) }
        if offline.contains(raw) { return .offline(underlying: message) }
        if timedOut.contains(raw) { return .timedOut(underlying: message) }
        if tls.contains(raw) { return .tls(underlying: message) }
        if badURL.contains(raw) { return .badURL(message) }
        if aborted.contains(raw) { return .cancelled }
        return .protocolError(underlying: message)
    }

    private static func codes(_ values: CURLcode...) -> Set<UInt32> { Set(values.map(\.rawValue)) }
}

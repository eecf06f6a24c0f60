import CCurl

/// The one place every libcurl easy handle is made, for HTTP transfers and WebSocket pipes alike, so
/// every handle gets the same safety settings: only http and https are ever requested or followed (a
/// redirect to `ftp://`, `file://` or `dict://` is refused by libcurl itself), and no signals are used.
public enum CurlEasy {
    /// The schemes libcurl may speak, for the first request and for any redirect.
    public static let allowedProtocols = "http,https"

    /// A new easy handle with the allowed protocols set, or nil when libcurl cannot make one.
    /// The caller owns it and frees it with `curl_easy_cleanup`.
    public static func make() -> UnsafeMutableRawPointer? {
        CurlGlobal.initialize()
        guard let easy = curl_easy_init() else { return nil }
        applySafetySettings(easy)
        return easy
    }

    /// Makes a handle whose transfer is over as good as new for the next one: every option back to
    /// libcurl's default (`curl_easy_reset`, which keeps the connection and DNS caches but forgets
    /// URLs, headers, credentials and callbacks) and the same safety settings as `make`. Cheaper than
    /// freeing the handle and making another, which a stream of keep-alive requests would do each time.
    public static func reset(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        applySafetySettings(easy)
    }

    /// Hands a client certificate, its key and passphrase to TLS (HTTP transfers and WebSocket pipes alike).
    /// libcurl copies the strings, and keeps connections made with one certificate apart from those made
    /// with another or none.
    public static func present(_ certificate: ClientCertificate, on easy: UnsafeMutableRawPointer) {
        courier_easy_setopt_str(easy, CURLOPT_SSLCERT, certificate.certificate.path)
        courier_easy_setopt_str(easy, CURLOPT_SSLCERTTYPE, certificate.certificateFormat.rawValue)
        if let key = certificate.key {
            courier_easy_setopt_str(easy, CURLOPT_SSLKEY, key.path)
            courier_easy_setopt_str(easy, CURLOPT_SSLKEYTYPE, certificate.keyFormat.rawValue)
        }
        if let passphrase = certificate.passphrase { courier_easy_setopt_str(easy, CURLOPT_KEYPASSWD, passphrase) }
    }

    private static func applySafetySettings(_ easy: UnsafeMutableRawPointer) {
        courier_easy_setopt_str(easy, CURLOPT_PROTOCOLS_STR, allowedProtocols)
        courier_easy_setopt_str(easy, CURLOPT_REDIR_PROTOCOLS_STR, allowedProtocols)
        // Signals must not be used for timeouts in a threaded process.
        courier_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
    }
}

import CCurl
import Foundation

/// How libcurl's result codes map onto `APIError`, as named sets. Curl's own message is kept.
/// Measured against libcurl 7.88.1 (Debian 12) and the demo server's `/chaos/*` endpoints.
enum CurlErrors {
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
    /// The connection broke before the answer was complete: a reset (56), an empty reply (52), a body
    /// or chunked body cut short (18), a failed send (55), an HTTP/2 stream reset (92). The server may
    /// answer next time.
    static let connectionLost: Set<UInt32> = codes(CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
                                                   CURLE_SEND_ERROR, CURLE_HTTP2_STREAM)
    /// Curl reports a receive error (56) for some replies that break HTTP too; these fragments of its
    /// message tell them apart from a dropped connection: headers over its 300 KB total, a chunk size
    /// that is not hexadecimal, a chunked body that is malformed.
    static let violationsReportedAsReceiveErrors: [String] = [
        "Too large response headers", "in chunked-encoding",
    ]
    /// Codes that, once a server has answered, mean its reply is not HTTP. "Unsupported protocol" is a
    /// status line with a foreign version or an HTTP/0.9 reply; "out of memory" is one header line over
    /// curl's 100 KB limit.
    static let violationsAfterConnecting: Set<UInt32> = codes(CURLE_UNSUPPORTED_PROTOCOL, CURLE_OUT_OF_MEMORY)

    /// The `APIError` for a failed transfer, saying what the client certificate has to do with it: one that
    /// could not be loaded (a wrong passphrase, a key that does not match), or a server that wants one.
    static func map(_ code: CURLcode, message: String, afterConnecting: Bool = false, redirects: Int = 0,
                    osErrno: Int = 0, url: URL? = nil, certificate: ClientCertificate?) -> APIError {
        if code.rawValue == CURLE_SSL_CERTPROBLEM.rawValue, let certificate {
            let why = "a wrong or missing passphrase, a key that does not match it, or another format"
            let text = "the client certificate \(certificate) could not be used: \(why) (\(message))"
            return .clientCertificate(.unusable, underlying: text)
        }
        if let refusal = ClientCertificate.refusal(message, presented: certificate) {
            return .clientCertificate(certificate == nil ? .required : .refused, underlying: refusal)
        }
        return map(code, message: message, afterConnecting: afterConnecting, redirects: redirects, osErrno: osErrno,
                   url: url)
    }

    /// The `APIError` for a failed transfer.
    /// - Parameters:
    ///   - afterConnecting: the server was reached, so "unsupported protocol" and "out of memory" are
    ///     about its reply, not about the URL's scheme or this machine.
    ///   - redirects: how many redirects were followed, for the message of a redirect loop.
    ///   - osErrno: `CURLINFO_OS_ERRNO`, which tells a refused port from a missing route.
    ///   - url: the request's URL, naming the host when curl's message does not.
    /// Anything unlisted is a protocol error, which is not retried: a retry can only help after a
    /// dropped connection, a timeout or a failed connect, and those are listed.
    static func map(_ code: CURLcode, message: String, afterConnecting: Bool = false,
                    redirects: Int = 0, osErrno: Int = 0, url: URL? = nil) -> APIError {
        let raw = code.rawValue
        if raw == CURLE_TOO_MANY_REDIRECTS.rawValue {
            return .protocolError(underlying: "redirect loop: gave up after \(redirects) redirects (\(message))")
        }
        if afterConnecting && violationsAfterConnecting.contains(raw) {
            let what = raw == CURLE_OUT_OF_MEMORY.rawValue ? "a response header line over 100 KB"
                                                            : "a status line that is not HTTP"
            return .protocolError(underlying: "\(what) (\(message))")
        }
        if let failure = ConnectFailure.fromCurl(code: raw, osErrno: osErrno, message: message, url: url) {
            return .cannotConnect(failure)
        }
        if timedOut.contains(raw) { return .timedOut(underlying: message) }
        if tls.contains(raw) { return .tls(underlying: message) }
        if badURL.contains(raw) { return .badURL(message) }
        if aborted.contains(raw) { return .cancelled }
        if connectionLost.contains(raw) {
            if violationsReportedAsReceiveErrors.contains(where: { message.contains($0) }) {
                return .protocolError(underlying: message)
            }
            return .connectionLost(underlying: message)
        }
        return .protocolError(underlying: message)
    }

    private static func codes(_ values: CURLcode...) -> Set<UInt32> { Set(values.map(\.rawValue)) }
}

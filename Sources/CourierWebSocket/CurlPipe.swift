import CCurl
import CourierHTTP
import Foundation

/// A byte pipe opened by libcurl with `CONNECT_ONLY`: libcurl resolves, connects, does the proxy
/// tunnel and TLS, then hands the connection over to `curl_easy_send/recv` (libcurl 7.88 has no
/// WebSocket support of its own). Owned and used by one thread; the handle is freed in `deinit`.
final class CurlPipe {
    private let handle: UnsafeMutableRawPointer
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    /// The connected socket, for poll(2).
    private(set) var socket: Int32 = -1

    /// The result of a non-blocking send or receive.
    enum IOResult {
        case done(Int)
        case wouldBlock
        case closed
        case failed(String)
    }

    init() throws(WebSocketError) {
        guard let handle = CurlEasy.make() else { throw .connectFailed(Self.localFailure("curl_easy_init failed")) }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// Connects to the http(s) URL; blocks until connected, failed, timed out or `cancel` is set.
    func connect(to url: URL, insecure: Bool, trustedCertificates: URL? = nil,
                 clientCertificate: ClientCertificate? = nil, timeout: Double,
                 cancel: CancelFlag) throws(WebSocketError) {
        _ = courier_easy_setopt_str(handle, CURLOPT_URL, url.absoluteString)
        _ = courier_easy_setopt_long(handle, CURLOPT_CONNECT_ONLY, 1)
        _ = courier_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(timeout * 1000)))
        // Through an HTTP proxy the upgrade request must travel inside a CONNECT tunnel.
        _ = courier_easy_setopt_long(handle, CURLOPT_HTTPPROXYTUNNEL, 1)
        _ = courier_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, insecure ? 0 : 1)
        _ = courier_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, insecure ? 0 : 2)
        if let trustedCertificates { _ = courier_easy_setopt_str(handle, CURLOPT_CAINFO, trustedCertificates.path) }
        if let clientCertificate { CurlEasy.present(clientCertificate, on: handle) }
        _ = errorBuffer.withUnsafeMutableBufferPointer {
            courier_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, $0.baseAddress)
        }
        _ = courier_easy_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = courier_easy_setopt_xferinfo_cb(handle) { userdata, _, _, _, _ in
            guard let userdata else { return 0 }
            return Unmanaged<CancelFlag>.fromOpaque(userdata).takeUnretainedValue().isSet ? 1 : 0
        }
        let code = withExtendedLifetime(cancel) {
            _ = courier_easy_setopt_ptr(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(cancel).toOpaque())
            return curl_easy_perform(handle)
        }
        _ = courier_easy_setopt_ptr(handle, CURLOPT_XFERINFODATA, nil)
        guard code == CURLE_OK else {
            var osErrno = 0
            _ = courier_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
            throw Self.error(for: code, detail: errorText(), osErrno: osErrno, url: url)
        }
        var fd: curl_socket_t = -1
        guard courier_easy_getinfo_socket(handle, &fd) == CURLE_OK, fd >= 0 else {
            throw .connectFailed(Self.localFailure("libcurl reported no socket"))
        }
        socket = fd
    }

    /// Sends as much of `bytes` as the socket takes now.
    func send(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        var sent = 0
        let code = curl_easy_send(handle, bytes.baseAddress, bytes.count, &sent)
        switch code {
        case CURLE_OK: return .done(sent)
        case CURLE_AGAIN: return .wouldBlock
        default: return .failed(failure(code))
        }
    }

    /// Receives what is available now into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        var received = 0
        let code = curl_easy_recv(handle, buffer.baseAddress, buffer.count, &received)
        switch code {
        case CURLE_OK: return received == 0 ? .closed : .done(received)
        case CURLE_AGAIN: return .wouldBlock
        default: return .failed(failure(code))
        }
    }

    /// Why a send or receive failed: curl's words for the code and, when it wrote one, its detail (the
    /// TLS library's message, such as an alert the server sent).
    private func failure(_ code: CURLcode) -> String {
        let detail = errorText()
        return detail.isEmpty ? Self.describe(code) : "\(Self.describe(code)): \(detail)"
    }

    private func errorText() -> String {
        errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func describe(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }

    /// Maps a failed connect to the error case by what the user does next.
    private static func error(for code: CURLcode, detail: String, osErrno: Int, url: URL) -> WebSocketError {
        let message = detail.isEmpty ? describe(code) : detail
        switch code {
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(phase: .connect)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .badURL(message)
        default:
            if tlsCodes.contains(code.rawValue) { return .tls(message: message) }
            let failure = ConnectFailure.fromCurl(code: code.rawValue, osErrno: osErrno, message: message, url: url)
            return .connectFailed(failure ?? ConnectFailure(reason: .other, host: url.host ?? "", port: url.port,
                                                            underlying: message))
        }
    }

    /// A failure on this machine before any connection was tried.
    private static func localFailure(_ message: String) -> ConnectFailure {
        ConnectFailure(reason: .other, host: "", port: nil, underlying: message)
    }

    /// libcurl result codes that mean a TLS or certificate failure.
    private static let tlsCodes: Set<UInt32> = [
        CURLE_SSL_CONNECT_ERROR.rawValue, CURLE_PEER_FAILED_VERIFICATION.rawValue,
        CURLE_SSL_CERTPROBLEM.rawValue, CURLE_SSL_CIPHER.rawValue, CURLE_SSL_CACERT_BADFILE.rawValue,
        CURLE_SSL_ISSUER_ERROR.rawValue, CURLE_SSL_PINNEDPUBKEYNOTMATCH.rawValue, CURLE_SSL_INVALIDCERTSTATUS.rawValue,
    ]
}

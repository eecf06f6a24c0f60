import CCurl

/// What every transfer sets from its request, and what libcurl says about a finished one, the same way for
/// whole responses and streams.
extension CurlEasy {
    /// TLS verification (on unless the user explicitly asked for --insecure), trusted certificates, the client
    /// certificate, and the connect and overall timeouts.
    static func applyTLSAndTimeouts(of request: HTTPRequest, configuration: CurlTransport.Configuration,
                                    on easy: UnsafeMutableRawPointer) {
        courier_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, request.insecure ? 0 : 1)
        courier_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, request.insecure ? 0 : 2)
        if let certificates = configuration.trustedCertificates {
            courier_easy_setopt_str(easy, CURLOPT_CAINFO, certificates.path)
        }
        if let certificate = request.clientCertificate { present(certificate, on: easy) }
        let connectTimeout = request.connectTimeout ?? configuration.connectTimeout
        courier_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, CurlTransfer.milliseconds(connectTimeout)))
        if let timeout = request.timeout {
            courier_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, CurlTransfer.milliseconds(timeout)))
        }
    }

    /// The transfer's phases from curl's timers; `received` is the body bytes as delivered (decoded).
    static func timing(of easy: UnsafeMutableRawPointer, started: ContinuousClock.Instant, received: Int) -> Timing {
        func phase(_ info: CURLINFO) -> Duration? {
            var micros: curl_off_t = 0
            guard courier_easy_getinfo_off(easy, info, &micros) == CURLE_OK, micros > 0 else { return nil }
            return .microseconds(micros)
        }
        var connects = 0
        courier_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var uploaded: curl_off_t = 0
        courier_easy_getinfo_off(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        // The body bytes as they came over the connection, before any Content-Encoding was decoded.
        var downloaded: curl_off_t = 0
        courier_easy_getinfo_off(easy, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        return Timing(dns: phase(CURLINFO_NAMELOOKUP_TIME_T), connect: phase(CURLINFO_CONNECT_TIME_T),
                      tls: phase(CURLINFO_APPCONNECT_TIME_T), firstByte: phase(CURLINFO_STARTTRANSFER_TIME_T),
                      total: phase(CURLINFO_TOTAL_TIME_T) ?? (ContinuousClock.now - started),
                      reusedConnection: connects == 0, bytesReceived: received, bytesSent: Int(uploaded),
                      bytesOnWire: Int(downloaded))
    }

    /// The HTTP version the transfer was spoken in; `fallback` is the status line's when curl does not say.
    static func httpVersion(of easy: UnsafeMutableRawPointer, fallback: String) -> String {
        var version = 0
        courier_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        switch version {
        case CURL_HTTP_VERSION_1_0: return "HTTP/1.0"
        case CURL_HTTP_VERSION_2_0: return "HTTP/2"
        case CURL_HTTP_VERSION_3: return "HTTP/3"
        default: return fallback.isEmpty ? "HTTP/1.1" : fallback
        }
    }

    /// Whether the failed transfer had reached a server (a new or reused connection answered).
    static func reachedServer(_ easy: UnsafeMutableRawPointer) -> Bool {
        var address: UnsafeMutablePointer<CChar>?
        courier_easy_getinfo_str(easy, CURLINFO_PRIMARY_IP, &address)
        return address.map { $0.pointee != 0 } ?? false
    }
}

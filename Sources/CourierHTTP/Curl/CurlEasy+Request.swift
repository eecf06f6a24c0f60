import CCurl

/// What a whole-response transfer of a request sets on its easy handle, for `CurlTransfer` (one transfer, its
/// response collected) and `CurlRepeatTransfer` (the same request again and again, its responses counted).
extension CurlEasy {
    /// Sets the URL, the HTTP version, TLS and timeouts, the user agent, credentials, the offered encodings
    /// and the header fields of `request` on `easy`; not its method and body, callbacks or error buffer.
    /// Returns the header list `CURLOPT_HTTPHEADER` now points to, which the caller frees once the handle is
    /// reset or freed.
    static func applyRequest(_ request: HTTPRequest, url: String, configuration: CurlTransport.Configuration,
                             on easy: UnsafeMutableRawPointer) -> UnsafeMutablePointer<curl_slist>? {
        courier_easy_setopt_str(easy, CURLOPT_URL, url)
        if let target = request.requestTarget { courier_easy_setopt_str(easy, CURLOPT_REQUEST_TARGET, target) }
        // Redirects are followed by the transport (RedirectPolicy), which drops secret headers across
        // origins; libcurl would forward custom ones such as X-Api-Key.
        courier_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        courier_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        courier_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        // A proxy's "200 Connection established" is not a response of the server: keep it away
        // from the header callback, which would otherwise take it for a complete head.
        courier_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        applyTLSAndTimeouts(of: request, configuration: configuration, on: easy)
        if let idle = configuration.idleTimeout {
            // libcurl's idle knob: under 1 byte/s for the whole period (no byte at all, in practice) ends
            // the transfer with a timeout, while a slow but living stream runs on.
            courier_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
            courier_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, CurlTransfer.milliseconds(idle) / 1000))
        }
        if !request.headers.contains("User-Agent") {
            courier_easy_setopt_str(easy, CURLOPT_USERAGENT, configuration.userAgent)
        }
        if let authentication = request.authentication {
            // curl answers the server's challenge itself (Digest's nonce, NTLM's and Negotiate's handshakes);
            // only Basic sends the password, base64-encoded, up front.
            let scheme = switch authentication.scheme {
            case .basic: courier_curlauth_basic()
            case .digest: courier_curlauth_digest()
            case .ntlm: courier_curlauth_ntlm()
            case .negotiate: courier_curlauth_negotiate()
            }
            courier_easy_setopt_long(easy, CURLOPT_HTTPAUTH, scheme)
            courier_easy_setopt_str(easy, CURLOPT_USERNAME, authentication.user)
            courier_easy_setopt_str(easy, CURLOPT_PASSWORD, authentication.password)
        }
        // "" offers every encoding this libcurl decodes (gzip, deflate, br, zstd on Debian) and turns on
        // decoding as the body streams; a request's own Accept-Encoding header replaces the offer.
        courier_easy_setopt_str(easy, CURLOPT_ACCEPT_ENCODING, "")
        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            // "Name;" is curl's spelling for a header sent with an empty value.
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            list = curl_slist_append(list, line)
        }
        // Without this curl waits up to a second for "100 Continue" before sending larger bodies.
        if !request.headers.contains("Expect") { list = curl_slist_append(list, "Expect:") }
        // curl adds "Content-Type: application/x-www-form-urlencoded" to every POST; a request carries only
        // the Content-Type it was given.
        if !request.headers.contains("Content-Type") { list = curl_slist_append(list, "Content-Type:") }
        courier_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
        return list
    }

    /// Sets the method of `request` and its body when it is in memory (`.empty`, `.data`); false for a body
    /// streamed from files, which the caller sets up before it names the method (`applyMethodName`).
    static func applyMethodAndBytes(of request: HTTPRequest, on easy: UnsafeMutableRawPointer) -> Bool {
        let method = request.method
        switch request.body {
        case .data(let data) where !data.isEmpty:
            courier_easy_setopt_long(easy, CURLOPT_POST, 1)
            courier_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(data.count))
            data.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies POSTFIELDSIZE bytes, so the buffer need not outlive this call.
                guard let base = bytes.baseAddress else { return }
                _ = courier_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
            }
        case .file, .parts:
            return false
        case .empty, .data:
            if method == .head {
                courier_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
                return true
            }
            if method == .get { return true }
            if method == .post {
                courier_easy_setopt_long(easy, CURLOPT_POST, 1)
                courier_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0)
                courier_easy_setopt_str(easy, CURLOPT_COPYPOSTFIELDS, "")
                return true
            }
        }
        applyMethodName(of: request, on: easy)
        return true
    }

    /// Bodies go out through curl's POST machinery; any other method name is written over it.
    static func applyMethodName(of request: HTTPRequest, on easy: UnsafeMutableRawPointer) {
        guard request.method != .post else { return }
        courier_easy_setopt_str(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
    }
}

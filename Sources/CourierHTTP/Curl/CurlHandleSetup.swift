import CCurl

/// What a finished transfer left set on its easy handle: the request and configuration it was set up from,
/// and the header list the handle points to. Kept with the handle in `CurlHandlePool`, so the next transfer
/// of the same request (what `courier load` and repeated runs send) skips `curl_easy_reset` and the whole
/// setup: libcurl keeps an easy handle's options from one transfer to the next. Loop thread only.
final class CurlHandleSetup {
    let request: HTTPRequest
    let configuration: CurlTransport.Configuration
    /// The list `CURLOPT_HTTPHEADER` points to; freed with this setup, once the handle is reset or freed.
    let headerList: UnsafeMutablePointer<curl_slist>?

    init(request: HTTPRequest, configuration: CurlTransport.Configuration,
         headerList: UnsafeMutablePointer<curl_slist>?) {
        self.request = request
        self.configuration = configuration
        self.headerList = headerList
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
    }

    /// Whether a transfer of `request` under `configuration` would set the handle exactly as it is: every
    /// field `CurlTransfer`'s setup reads is the same. A body streamed from files is never kept (see
    /// `CurlTransfer.keptSetup`), so bodies compare as bytes.
    func fits(_ request: HTTPRequest, configuration: CurlTransport.Configuration) -> Bool {
        let kept = self.request
        return request.url == kept.url && request.method == kept.method && request.headers == kept.headers
            && request.body == kept.body && request.requestTarget == kept.requestTarget
            && request.insecure == kept.insecure && request.clientCertificate == kept.clientCertificate
            && request.timeout == kept.timeout && request.connectTimeout == kept.connectTimeout
            && request.authentication == kept.authentication && configuration.setsHandleAlike(self.configuration)
    }
}

extension CurlTransport.Configuration {
    /// Whether the handle options set from this configuration are those set from `other`.
    func setsHandleAlike(_ other: Self) -> Bool {
        trustedCertificates == other.trustedCertificates && connectTimeout == other.connectTimeout
            && idleTimeout == other.idleTimeout && userAgent == other.userAgent
    }
}

import CCurl
import Foundation

/// One connection of a `CurlRepeater` on the loop thread: an easy handle set up once for the request, which the
/// loop puts back on the multi handle each time an exchange completes (`sendsAgain`) until the run ends. The
/// body is counted in C and dropped (not decoded: its bytes as they came are what is counted); only Set-Cookie
/// lines reach Swift, when the request has a jar to keep them.
final class CurlRepeatTransfer: LoopTransfer {
    let id: UInt64
    let easy: UnsafeMutableRawPointer
    private let job: CurlRepeatJob
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The URL parsed once (`CURLOPT_CURLU`), so that libcurl does not parse its text for every transfer.
    private var parsedURL: OpaquePointer?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private let counts = UnsafeMutablePointer<courier_repeat_counts>.allocate(capacity: 1)
    /// The Set-Cookie values of the exchange under way.
    private var cookies: [String] = []
    private var started = ContinuousClock.now
    private(set) var sendsAgain = false
    private var ended = false

    init(job: CurlRepeatJob, easy: UnsafeMutableRawPointer) {
        self.id = job.id
        self.easy = easy
        self.job = job
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let cookie: courier_cookie_line_cb? = job.jar == nil ? nil : { userdata, line, length in
            guard let userdata, let line else { return }
            Unmanaged<CurlRepeatTransfer>.fromOpaque(userdata).takeUnretainedValue()
                .keepCookie(UnsafeRawBufferPointer(start: line, count: length))
        }
        counts.initialize(to: courier_repeat_counts(received: 0, limit: curl_off_t(job.configuration.maxBodySize),
                                                    exceeded: 0, cookie: cookie, userp: me))
        headerList = CurlEasy.applyRequest(job.request, url: job.url, configuration: job.configuration, on: easy)
        _ = CurlEasy.applyMethodAndBytes(of: job.request, on: easy)
        parsedURL = courier_url_parsed(job.url)
        if let parsedURL { courier_easy_setopt_ptr(easy, CURLOPT_CURLU, UnsafeMutableRawPointer(parsedURL)) }
        courier_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        // The body is counted, never read: decoding it would be work for nothing.
        courier_easy_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
        courier_easy_repeat_callbacks(easy, counts)
    }

    /// Records the exchange, then goes again when the run lets another request start.
    func complete(_ code: CURLcode) {
        sendsAgain = false
        let group = job.group
        // A request cut short by Ctrl-C is not counted: its time says nothing of the server.
        guard !group.cancelled else { return end() }
        var status = 0
        courier_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        if code == CURLE_OK, RedirectPolicy.followedStatuses.contains(status) {
            var location: UnsafeMutablePointer<CChar>?
            courier_easy_getinfo_str(easy, CURLINFO_REDIRECT_URL, &location)
            let target = location.map { String(cString: $0) }
            if RedirectPolicy.isFollowed(job.request, status: status, location: target) {
                // The ordinary way follows it; this request is sent again that way.
                group.handOver()
                group.hooks.giveBack()
                return end()
            }
        }
        let timing = CurlEasy.timing(of: easy, started: started, received: Int(counts.pointee.received))
        let error = code == CURLE_OK ? nil : failure(code)
        group.hooks.record(RepeatedExchange(status: error == nil ? status : nil, error: error, timing: timing))
        if !cookies.isEmpty, let jar = job.jar {
            jar.store(setCookie: cookies, from: job.request.url)
            cookies = []
            // Later requests send the cookie: the ordinary way attaches the jar's cookies to each.
            group.handOver()
        }
        guard !group.handedOver, group.hooks.next() else { return end() }
        counts.pointee.received = 0
        counts.pointee.exceeded = 0
        errorBuffer[0] = 0
        started = ContinuousClock.now
        sendsAgain = true
    }

    func finish(throwing error: APIError) {
        sendsAgain = false
        end()
    }

    private func keepCookie(_ line: UnsafeRawBufferPointer) {
        // "Set-Cookie:" and the line's end are not the value.
        let value = String(decoding: line.dropFirst(11), as: UTF8.self)
        cookies.append(value.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func failure(_ code: CURLcode) -> APIError {
        if counts.pointee.exceeded != 0 { return .tooLarge(limit: job.configuration.maxBodySize) }
        let detail = String(cString: errorBuffer)
        var redirects = 0
        courier_easy_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        var osErrno = 0
        courier_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osErrno)
        return CurlErrors.map(code, message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail,
                              afterConnecting: CurlEasy.reachedServer(easy), redirects: redirects,
                              osErrno: osErrno, url: job.request.url, certificate: job.request.clientCertificate)
    }

    /// The connection stops: what it set on the handle is freed (the loop resets the handle before lending it
    /// again) and the run hears of it.
    private func end() {
        guard !ended else { return }
        ended = true
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        if let parsedURL {
            courier_easy_setopt_ptr(easy, CURLOPT_CURLU, nil)
            curl_url_cleanup(parsedURL)
        }
        parsedURL = nil
        counts.pointee.cookie = nil
        job.group.ended()
    }

    deinit {
        errorBuffer.deallocate()
        counts.deallocate()
    }
}

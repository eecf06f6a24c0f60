import CCurl
import CourierMessage
import Foundation

/// One `HTTPStream` on one easy handle, on the loop thread: the request body comes from the stream's
/// upload queue through the read callback (pausing when it runs dry), and the head, body bytes and
/// trailers go to the stream's events as libcurl delivers them.
final class CurlStreamTransfer: LoopTransfer {
    let id: UInt64
    let easy: UnsafeMutableRawPointer
    private let job: StreamJob
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private let started = ContinuousClock.now
    private var head = ResponseHead()
    private var headAnnounced = false
    /// Header lines after the head: libcurl hands HTTP/2 trailers to the header callback after the body.
    private var trailers = HTTPHeaders()
    private var received = 0
    private var finished = false

    init(job: StreamJob, easy: UnsafeMutableRawPointer) {
        self.id = job.id
        self.easy = easy
        self.job = job
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        configure()
    }

    private func configure() {
        let request = job.request
        let configuration = job.configuration
        let me = Unmanaged.passUnretained(self).toOpaque()
        courier_easy_setopt_str(easy, CURLOPT_URL, request.url.absoluteString)
        courier_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        courier_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        let plain = request.url.scheme?.lowercased() == "http"
        courier_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, plain && job.http2PriorKnowledge
                                 ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : CURL_HTTP_VERSION_2TLS)
        if plain && job.http2PriorKnowledge {
            // libcurl 7.88 fails the second request on a reused prior-knowledge (h2c) connection with "Error
            // in the HTTP2 framing layer" (the curl tool itself does, with two URLs): one connection each.
            courier_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1)
            courier_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1)
        }
        courier_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        CurlEasy.applyTLSAndTimeouts(of: request, configuration: configuration, on: easy)
        if !request.headers.contains("User-Agent") {
            courier_easy_setopt_str(easy, CURLOPT_USERAGENT, configuration.userAgent)
        }
        // A POST whose length is unknown: on HTTP/2 the body goes out as DATA frames as it is queued.
        courier_easy_setopt_long(easy, CURLOPT_POST, 1)
        if let length = job.upload.knownLength {
            courier_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(length))
        }
        courier_easy_setopt_data_cb(easy, CURLOPT_READFUNCTION) { buffer, size, count, userdata in
            guard let buffer, let userdata else { return 0 }
            let transfer = Unmanaged<CurlStreamTransfer>.fromOpaque(userdata).takeUnretainedValue()
            switch transfer.job.upload.read(into: buffer, capacity: size * count) {
            case .bytes(let count): return count
            case .end: return 0
            case .pause: return Int(CURL_READFUNC_PAUSE)
            }
        }
        courier_easy_setopt_ptr(easy, CURLOPT_READDATA, me)
        if request.method != .post { courier_easy_setopt_str(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue) }

        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            list = curl_slist_append(list, field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if !request.headers.contains("Expect") { list = curl_slist_append(list, "Expect:") }
        if !request.headers.contains("Content-Type") { list = curl_slist_append(list, "Content-Type:") }
        headerList = list
        courier_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)

        courier_easy_setopt_data_cb(easy, CURLOPT_HEADERFUNCTION) { pointer, size, count, userdata in
            guard let pointer, let userdata else { return 0 }
            let transfer = Unmanaged<CurlStreamTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveHeader(UnsafeRawBufferPointer(start: pointer, count: size * count))
        }
        courier_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me)
        courier_easy_setopt_data_cb(easy, CURLOPT_WRITEFUNCTION) { pointer, size, count, userdata in
            guard let pointer, let userdata else { return 0 }
            let transfer = Unmanaged<CurlStreamTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: pointer, count: size * count))
        }
        courier_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me)
    }

    // MARK: Callbacks

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        if headAnnounced {
            var line = ResponseHead()
            line.consume(rawLine: bytes)
            for field in line.headers { trailers.add(field.name, field.value) }
        } else if ResponseHead.isBlankLine(bytes) {
            if !head.isInterim { announceHead() }
        } else {
            head.consume(rawLine: bytes)
        }
        return bytes.count
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        announceHead()
        received += bytes.count
        job.continuation.yield(.data(Data(bytes)))
        return bytes.count
    }

    private func announceHead() {
        guard !headAnnounced else { return }
        headAnnounced = true
        if job.endsConnection(head) { courier_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1) }
        job.continuation.yield(.head(head))
    }

    /// More bytes (or the end) were queued after the upload paused: let libcurl read again.
    func poke() {
        curl_easy_pause(easy, CURLPAUSE_CONT)
    }

    // MARK: Completion

    func complete(_ code: CURLcode) {
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            finish(throwing: CurlErrors.map(code, message: message, afterConnecting: CurlEasy.reachedServer(easy),
                                            certificate: job.request.clientCertificate))
            return
        }
        if head.status == 0 {
            var status = 0
            courier_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            head.status = status
        }
        announceHead()
        if !trailers.isEmpty { job.continuation.yield(.trailers(trailers)) }
        let timing = CurlEasy.timing(of: easy, started: started, received: received)
        job.continuation.yield(.finished(timing, httpVersion: CurlEasy.httpVersion(of: easy, fallback: head.version)))
        end(nil)
    }

    func finish(throwing error: APIError) {
        end(error)
    }

    private func end(_ error: APIError?) {
        guard !finished else { return }
        finished = true
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        errorBuffer.deallocate()
        _ = job.upload.finish()
        job.continuation.finish(throwing: error)
    }
}

import CCurl
import CourierMessage
import Foundation

/// One request on one easy handle: sets it up from an `HTTPRequest`, collects the status line,
/// headers and body from libcurl's callbacks, and resumes the caller exactly once. Lives on the
/// loop thread only. The handle is lent by the loop (`CurlHandlePool`), which takes it back afterwards.
final class CurlTransfer {
    let id: UInt64
    let easy: UnsafeMutableRawPointer
    private let job: CurlJob
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// The body being streamed (`RequestBody.file` or `.parts`), its files open; nil for other bodies.
    private var upload: UploadSource?
    private var finished = false
    private let started = ContinuousClock.now
    private var head = ResponseHead()
    /// Whether `onHead` has been called: once per transfer, for the final head only.
    private var headAnnounced = false
    private var sink: BodySink
    /// The current head names a coding libcurl cannot decode, so its body comes as the server sent it.
    private var passesBodyRaw = false
    /// The request's URL as libcurl was given it: the effective URL at the end is most often the same
    /// text, and then the request's URL is reused rather than parsed again.
    private let urlText: String
    /// How the handle was already set up for this request by the last transfer on it; nil when it was set
    /// up here.
    private let kept: CurlHandleSetup?
    /// What this transfer leaves set on the handle for the next transfer of the same request (see
    /// `CurlHandleSetup`); nil until it has succeeded, and when the handle must be reset.
    private(set) var keptSetup: CurlHandleSetup?

    /// Sets up `easy`, a fresh or reset handle (`CurlEasy`), or one `kept` says is set up for this request
    /// already; the caller still owns it.
    init(job: CurlJob, easy: UnsafeMutableRawPointer, kept: CurlHandleSetup?) throws(APIError) {
        self.id = job.id
        self.easy = easy
        self.job = job
        self.kept = kept
        self.sink = BodySink(configuration: job.configuration)
        self.urlText = job.request.url.absoluteString
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        if kept != nil {
            pointHandleHere()
            return
        }
        do {
            try configure()
        } catch {
            cleanup()
            throw error
        }
    }

    // MARK: Setup

    /// Whether a transfer of `job` may leave its setup on the handle for the next one: not when its body
    /// streams from files (the read callbacks hold the open files) or its sent head is read back (the
    /// debug callback).
    static func keepsSetup(of job: CurlJob) -> Bool {
        guard job.context.onRequestHead == nil else { return false }
        switch job.request.body {
        case .file, .parts: return false
        case .empty, .data: return true
        }
    }

    /// What points at this transfer rather than at its request: the error buffer and the callbacks' data.
    private func pointHandleHere() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        courier_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        courier_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me)
        courier_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me)
    }

    private func configure() throws(APIError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        headerList = CurlEasy.applyRequest(job.request, url: urlText, configuration: job.configuration, on: easy)
        courier_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        if !CurlEasy.applyMethodAndBytes(of: job.request, on: easy) {
            switch job.request.body {
            case .file(let url): try configureUpload([.file(url)], userdata: me)
            case .parts(let parts): try configureUpload(parts, userdata: me)
            case .empty, .data: break
            }
            CurlEasy.applyMethodName(of: job.request, on: easy)
        }
        courier_easy_setopt_data_cb(easy, CURLOPT_HEADERFUNCTION) { pointer, size, count, userdata in
            guard let pointer, let userdata else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveHeader(UnsafeRawBufferPointer(start: pointer, count: size * count))
        }
        courier_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me)
        courier_easy_setopt_data_cb(easy, CURLOPT_WRITEFUNCTION) { pointer, size, count, userdata in
            guard let pointer, let userdata else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: pointer, count: size * count))
        }
        courier_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me)
        if job.context.onRequestHead != nil {
            // Curl's debug stream is the one place the head it sent can be read back, with the fields it added.
            courier_easy_setopt_debug_cb(easy) { _, type, data, size, userdata in
                guard type == CURLINFO_HEADER_OUT, let data, let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                let head = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
                transfer.job.context.onRequestHead?(head)
                return 0
            }
            courier_easy_setopt_ptr(easy, CURLOPT_DEBUGDATA, me)
            courier_easy_setopt_long(easy, CURLOPT_VERBOSE, 1)
        }
    }

    /// Streams the body as curl asks for it, a buffer at a time (`UploadSource`): a body of any size costs
    /// no memory. Its files are opened again for every attempt, and curl may rewind it.
    private func configureUpload(_ parts: [RequestBodyPart],
                                 userdata: UnsafeMutableRawPointer) throws(APIError) {
        let source = try UploadSource(parts)
        upload = source
        courier_easy_setopt_long(easy, CURLOPT_POST, 1)
        courier_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(source.size))
        courier_easy_setopt_data_cb(easy, CURLOPT_READFUNCTION) { buffer, size, count, userdata in
            guard let buffer, let userdata else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.upload?.read(into: buffer, capacity: size * count) ?? Int(CURL_READFUNC_ABORT)
        }
        courier_easy_setopt_ptr(easy, CURLOPT_READDATA, userdata)
        courier_easy_setopt_seek_cb(easy) { userdata, offset, origin in
            guard let userdata, offset == 0, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
            Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().upload?.rewind()
            return Int32(CURL_SEEKFUNC_OK)
        }
        courier_easy_setopt_ptr(easy, CURLOPT_SEEKDATA, userdata)
    }

    // MARK: Callbacks (loop thread)

    /// curl passes every header line of every response of the transfer (interim 1xx, each redirect,
    /// the final one, then any trailers); a blank line ends one head.
    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        if ResponseHead.isBlankLine(bytes) {
            passBodyRawIfUndecodable()
            if isFinal(head) { announceHead() }
        } else {
            head.consume(rawLine: bytes)
        }
        return bytes.count
    }

    /// libcurl fails a transfer whose body has a coding it cannot decode (`Content-Encoding: UTF-8`); such a
    /// body is taken as it came instead, as curl without --compressed does. libcurl's documentation allows
    /// no calls from its callbacks in general, but this flag is read as each body chunk is delivered
    /// (libcurl 7.88) and is set here before the first one, for this head alone.
    private func passBodyRawIfUndecodable() {
        let raw = !ContentCodings.undecodable(head.headers).isEmpty
        guard raw != passesBodyRaw else { return }
        passesBodyRaw = raw
        courier_easy_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, raw ? 0 : 1)
    }

    /// Whether the body of the current head is decoded by libcurl from a Content-Encoding.
    private var isDecoded: Bool { head.isContentEncoded && !passesBodyRaw }

    /// Whether a complete head is the last one of the transfer: neither interim (1xx) nor a redirect
    /// the transport is about to follow (a 3xx with a Location when redirects are followed).
    private func isFinal(_ head: ResponseHead) -> Bool {
        !head.isInterim && !isFollowedRedirect(head)
    }

    /// Whether the head is a redirect the transport will follow: its body is nobody's and is dropped.
    private func isFollowedRedirect(_ head: ResponseHead) -> Bool {
        // The status first: most heads are no redirect, and the Location lookup scans every header.
        RedirectPolicy.followedStatuses.contains(head.status)
            && RedirectPolicy.isFollowed(job.request, status: head.status, location: head.headers["Location"])
    }

    /// Hands the final head to the caller, once. Also called before the first body byte and at the
    /// end of the transfer, for a head whose end was not taken as final (a Location that curl did
    /// not follow after all) or that never came (an HTTP/0.9 answer).
    private func announceHead() {
        guard !headAnnounced else { return }
        headAnnounced = true
        job.context.onHead?(head)
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if isFollowedRedirect(head) { return bytes.count }
        announceHead()
        // Kept straight from libcurl's buffer; a chunk of its own only for a caller that asks for each.
        guard sink.append(bytes, encoded: isDecoded) else { return 0 }
        job.context.onChunk?(Data(bytes))
        if let failure = job.context.streamFailure?() {
            sink.fail(failure)
            return 0
        }
        if let keepsBody = job.context.keepsBody, !keepsBody() { sink.stopKeeping() }
        if let onProgress = job.context.onProgress {
            let elapsed = ContinuousClock.now - started
            // A compressed body's Content-Length counts wire bytes, not the decoded ones received here.
            let expected = isDecoded ? nil : head.contentLength
            onProgress(TransferProgress(received: sink.received, expected: expected, elapsed: elapsed))
        }
        return bytes.count
    }

    // MARK: Completion

    /// Turns curl's result into a response or an `APIError` and resumes the caller.
    func complete(_ code: CURLcode) {
        guard code == CURLE_OK else {
            if let failure = sink.failure {
                finish(throwing: failure)
            } else {
                // A server address means a connection was made (new or reused) and the server answered.
                let connected = CurlEasy.reachedServer(easy)
                var redirects = 0
                courier_easy_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
                var osErrno = 0
                courier_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osErrno)
                finish(throwing: CurlErrors.map(code, message: errorMessage(code), afterConnecting: connected,
                                                redirects: redirects, osErrno: osErrno, url: job.request.url,
                                                certificate: job.request.clientCertificate))
            }
            return
        }
        let body: ResponseBody
        do {
            body = try sink.finish()
        } catch {
            finish(throwing: error)
            return
        }
        var status = 0
        courier_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        if head.status == 0 { head.status = status }
        if !isFollowedRedirect(head) { announceHead() }
        var effective: UnsafeMutablePointer<CChar>?
        courier_easy_getinfo_str(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let url = effective.flatMap { pointer in
            let text = String(cString: pointer)
            return text == urlText ? job.request.url : URL(string: text)
        } ?? job.request.url
        let final = ResponseHead(version: httpVersion(), status: status, reason: head.reason, headers: head.headers)
        let response = HTTPResponse(head: final, body: body, url: url, timing: timing())
        resume(.success(response))
    }

    /// Resumes the caller with an error, discarding any partial body.
    func finish(throwing error: APIError) {
        sink.discard()
        resume(.failure(error))
    }

    private func resume(_ result: Result<HTTPResponse, APIError>) {
        guard !finished else { return }
        finished = true
        if case .success = result, !passesBodyRaw, Self.keepsSetup(of: job) {
            keptSetup = kept ?? CurlHandleSetup(request: job.request, configuration: job.configuration,
                                                headerList: headerList)
            headerList = nil
        }
        cleanup()
        job.continuation.resume(returning: result)
    }

    /// Frees what this transfer set on the handle and does not leave to the next (`keptSetup`); the handle
    /// itself goes back to its pool.
    private func cleanup() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        upload?.close()
        upload = nil
        errorBuffer.deallocate()
    }

    private func errorMessage(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    private func timing() -> Timing {
        CurlEasy.timing(of: easy, started: started, received: sink.received)
    }

    private func httpVersion() -> String {
        CurlEasy.httpVersion(of: easy, fallback: head.version)
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.milliseconds.rounded(.up))
    }
}

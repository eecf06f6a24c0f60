import CCurl
import CourierSecurity
import Foundation
import Synchronization

/// Sends requests with libcurl's multi interface, driven by one dedicated thread. Connections are
/// kept alive and reused between transfers; cancelling the calling Task aborts the transfer.
public final class CurlTransport: Transport {
    /// Limits and places for the transfers of one transport.
    public struct Configuration: Sendable {
        /// Bodies larger than this are written to a temporary file (`ResponseBody.file`).
        public var spillThreshold: Int
        /// A body larger than this aborts the transfer with `APIError.tooLarge`.
        public var maxBodySize: Int
        /// A compressed (Content-Encoding) body that decodes past this aborts with `APIError.tooLarge`:
        /// the bound on a decompression bomb. Decoded bytes past `spillThreshold` go to disk, not memory.
        public var maxDecodedBodySize: Int
        /// Where spilled bodies go; the caller owns (and deletes) the files it receives.
        public var temporaryDirectory: URL {
            get { chosenTemporaryDirectory ?? FileManager.default.temporaryDirectory }
            set { chosenTemporaryDirectory = newValue }
        }
        /// The folder given, if any; else the system's, looked up only when a body spills (making the file
        /// manager cost every one-shot send a twentieth of a millisecond).
        var chosenTemporaryDirectory: URL?
        /// The limit for establishing a connection, separate from the request's own timeout.
        public var connectTimeout: Duration
        /// Sent unless the request has its own User-Agent.
        public var userAgent: String
        /// A PEM file of the certificates that servers are verified against, in place of the system's
        /// (curl's `--cacert`): how a self-signed development server is trusted without `--insecure`.
        public var trustedCertificates: URL?
        /// A transfer that receives (or sends) no byte for this long fails with `timedOut`; nil waits for
        /// ever. Unlike the request's `timeout` (the whole exchange), a stream that keeps talking never hits it.
        public var idleTimeout: Duration?

        /// The default bound on a decoded compressed body: 256 MB.
        public static let defaultMaxDecodedBodySize = 256 << 20

        public init(spillThreshold: Int = 4 << 20, maxBodySize: Int = 1 << 30,
                    maxDecodedBodySize: Int = defaultMaxDecodedBodySize,
                    temporaryDirectory: URL? = nil,
                    connectTimeout: Duration = .seconds(30), userAgent: String = "courier/" + CourierVersion.current,
                    trustedCertificates: URL? = nil, idleTimeout: Duration? = nil) {
            self.idleTimeout = idleTimeout
            self.spillThreshold = spillThreshold
            self.maxBodySize = maxBodySize
            self.maxDecodedBodySize = maxDecodedBodySize
            chosenTemporaryDirectory = temporaryDirectory
            self.connectTimeout = connectTimeout
            self.userAgent = userAgent
            self.trustedCertificates = trustedCertificates
        }
    }

    /// URL schemes this transport sends; anything else is `APIError.badURL` before any I/O.
    public static let supportedSchemes: Set<String> = ["http", "https"]

    public let configuration: Configuration
    let loop: CurlMultiLoop
    private let ids = Atomic<UInt64>(0)

    /// Starts the transport's thread. One transport shares one connection cache among all its transfers.
    public init(configuration: Configuration = Configuration()) {
        CurlGlobal.initialize()
        self.configuration = configuration
        self.loop = CurlMultiLoop()
    }

    /// A transport on a loop of the caller's (tests use one whose waits are unbounded, `CurlMultiLoop(boundsWaits:)`).
    init(configuration: Configuration = Configuration(), loop: CurlMultiLoop) {
        CurlGlobal.initialize()
        self.configuration = configuration
        self.loop = loop
    }

    deinit { loop.shutdown() }

    /// The transport's loop thread as a task executor: a task that prefers it sends its requests and is resumed
    /// with their responses on that thread, with no hand-off between threads (`withTaskExecutorPreference`).
    /// For tasks that mostly send and wait; one that computes long holds up every transfer of the transport.
    public var executor: any TaskExecutor { loop }

    /// Sends one attempt, following redirects by `RedirectPolicy`; see `Transport`.
    public func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
        var current = request
        var hops = 0
        var sentSecrets: Set<String> = []
        while true {
            var response = try await sendHop(current, context: context)
            // The status first: most responses are no redirect, and the Location lookup scans every header.
            let location = RedirectPolicy.followedStatuses.contains(response.status) ? response.headers["Location"] : nil
            guard let location, RedirectPolicy.isFollowed(current, status: response.status, location: location) else {
                response.url = Self.withoutCredentials(response.url)
                response.sentSecrets.formUnion(sentSecrets)
                return response
            }
            hops += 1
            guard hops <= RedirectPolicy.maximumRedirects else {
                throw APIError.protocolError(underlying: "redirect loop: gave up after \(hops - 1) redirects")
            }
            current = try RedirectPolicy.next(after: current, status: response.status, location: location)
            // A Location with `user:password@` makes libcurl send them as Basic credentials.
            sentSecrets.formUnion(SecretPolicy.credentials(inURL: current.url.absoluteString))
        }
    }

    /// What a transfer resumes its caller with.
    typealias Answer = Result<HTTPResponse, APIError>

    /// A number no other transfer of this transport has.
    func nextTransferID() -> UInt64 { ids.add(1, ordering: .relaxed).newValue }

    /// The URL without `user:password@`, which must never reach output, logs or history.
    static func withoutCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    /// Sends one request without following its redirect. Inlined: each async function a request passes through
    /// is two hops to the generic executor (at its start and after its await), each a lookup of the task's
    /// executor preference under the task's status lock.
    @inline(__always)
    private func sendHop(_ request: HTTPRequest,
                         context: RequestContext) async throws(APIError) -> HTTPResponse {
        guard let scheme = request.url.scheme?.lowercased(), Self.supportedSchemes.contains(scheme),
              request.url.host?.isEmpty == false else {
            throw APIError.badURL(request.url.absoluteString)
        }
        try Task.checkCancellation(orThrow: .cancelled)
        let id = nextTransferID()
        let ticket = TransferTicket()
        let loop = self.loop
        let configuration = self.configuration
        let result = await withTaskCancellationHandler {
            // Unchecked: a transfer resumes its caller once (`CurlTransfer.resume`), and the checked kind costs
            // an allocation per request.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Answer, Never>) in
                let job = CurlJob(id: id, request: request, context: context, configuration: configuration,
                                  continuation: continuation)
                let submitted = ticket.submit { loop.submit(job) }
                if !submitted { continuation.resume(returning: .failure(.cancelled)) }
            }
        } onCancel: {
            ticket.cancel { loop.cancel(id) }
        }
        return try result.get()
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws the given error when the current task is cancelled.
    static func checkCancellation(orThrow error: APIError) throws(APIError) {
        if Task.isCancelled { throw error }
    }
}

/// Orders a transfer's submission against its cancellation, which may run first or concurrently.
/// Both actions run under the ticket's lock, so a cancel is never queued before its transfer.
final class TransferTicket: Sendable {
    private enum State { case waiting, submitted, cancelled }
    private let state = Mutex(State.waiting)

    /// Runs `action` and returns true unless the transfer was already cancelled.
    func submit(_ action: () -> Void) -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = .submitted
            action()
            return true
        }
    }

    /// Marks the ticket cancelled and runs `action` when the transfer had been submitted.
    func cancel(_ action: () -> Void) {
        state.withLock { state in
            if state == .submitted { action() }
            state = .cancelled
        }
    }
}

/// One transfer waiting for the loop thread. A class: it goes from the caller to the inbox, the loop and the
/// transfer by reference, where a struct of a request and a configuration was copied field by field each time.
final class CurlJob: Sendable {
    let id: UInt64
    let request: HTTPRequest
    let context: RequestContext
    let configuration: CurlTransport.Configuration
    /// Resumed once, with the response or the failure: a Result, so the failure stays an `APIError`.
    let continuation: UnsafeContinuation<CurlTransport.Answer, Never>

    init(id: UInt64, request: HTTPRequest, context: RequestContext, configuration: CurlTransport.Configuration,
         continuation: UnsafeContinuation<CurlTransport.Answer, Never>) {
        self.id = id
        self.request = request
        self.context = context
        self.configuration = configuration
        self.continuation = continuation
    }
}

/// `curl_global_init` must run once before any other call, and before threads start using curl.
enum CurlGlobal {
    private static let done: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        atexit(stopCurlLoopsAtExit)
        return true
    }()

    static func initialize() { _ = done }
}

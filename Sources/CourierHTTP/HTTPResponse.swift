import CourierMessage
import Foundation

/// A response as a value: its head (status line and headers), body, where the time went and what the
/// cache did.
public struct HTTPResponse: Sendable, ResponseHeadHolder {
    /// The status line and header fields; `status`, `reason`, `headers` and `httpVersion` read and write it.
    public var head: ResponseHead
    public var body: ResponseBody
    /// The URL that answered, after redirects.
    public var url: URL
    public var timing: Timing
    /// What the HTTP cache did for this response; `.bypass` when no cache is in the pipeline.
    public var cache: CacheReport
    /// Credentials the pipeline sent that the caller's request did not hold (cookies from a jar, a bearer
    /// token the client attached, the user info of a redirect it followed): secrets like the request's own,
    /// masked wherever the response echoes them.
    public var sentSecrets: Set<String> = []

    /// A response with this head.
    public init(head: ResponseHead, body: ResponseBody = .data(Data()), url: URL, timing: Timing = Timing(),
                cache: CacheReport = CacheReport(decision: .bypass)) {
        self.head = head
        self.body = body
        self.url = url
        self.timing = timing
        self.cache = cache
    }

    /// A response from the parts of its head.
    public init(status: Int, reason: String = "", headers: HTTPHeaders = [:], body: ResponseBody = .data(Data()),
                url: URL, httpVersion: String = "HTTP/1.1", timing: Timing = Timing(),
                cache: CacheReport = CacheReport(decision: .bypass)) {
        self.init(head: ResponseHead(version: httpVersion, status: status, reason: reason, headers: headers),
                  body: body, url: url, timing: timing, cache: cache)
    }

    /// As the transport reports it: `HTTP/1.1`, `HTTP/2`.
    public var httpVersion: String {
        get { head.version }
        set { head.version = newValue }
    }

    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Why the body is shown as the server sent it (a Content-Encoding Courier cannot decode), or nil.
    public var contentEncodingNote: String? { body.size > 0 ? ContentCodings.note(for: headers) : nil }
}

/// A response body: in memory, or spilled to a temporary file past the transport's threshold.
public enum ResponseBody: Sendable, Hashable {
    case data(Data)
    case file(URL, size: Int)

    public var size: Int {
        switch self {
        case .data(let data): data.count
        case .file(_, let size): size
        }
    }

    /// Reads the whole body. Callers showing large bodies should page through the file instead.
    public func readAll() throws -> Data {
        switch self {
        case .data(let data): data
        case .file(let url, _): try Data(contentsOf: url, options: .alwaysMapped)
        }
    }
}

/// Where the time of one attempt went, from the transport's timers. All durations are since the
/// start of the attempt, like curl's `*_TIME_T` values; nil when the phase did not happen.
public struct Timing: Sendable, Hashable {
    public var dns: Duration?
    public var connect: Duration?
    public var tls: Duration?
    /// Time to the first byte of the response.
    public var firstByte: Duration?
    public var total: Duration
    public var reusedConnection: Bool
    public var bytesReceived: Int
    public var bytesSent: Int
    /// The body's size as it crossed the network, before a Content-Encoding (gzip, br…) was decoded;
    /// 0 when unknown. `bytesReceived` is the decoded size.
    public var bytesOnWire: Int

    public init(dns: Duration? = nil, connect: Duration? = nil, tls: Duration? = nil, firstByte: Duration? = nil,
                total: Duration = .zero, reusedConnection: Bool = false, bytesReceived: Int = 0, bytesSent: Int = 0,
                bytesOnWire: Int = 0) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
        self.reusedConnection = reusedConnection
        self.bytesReceived = bytesReceived
        self.bytesSent = bytesSent
        self.bytesOnWire = bytesOnWire
    }
}

extension Duration {
    /// Milliseconds as a Double, for display and JSON.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

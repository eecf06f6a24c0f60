import CourierMessage
import Foundation
import Synchronization

/// One kept response: what was asked, what came back, how long it took and what the cache did. Plain
/// values and the one header list (no client core types), so the store stays free of the client core.
public struct HistoryEntry: Codable, Sendable, Hashable {
    /// Sortable identifier: `yyyyMMdd-HHmmss-SSS-xxxxxx` (UTC time, then random hex).
    public var id: String
    public var date: Date
    public var request: Request
    /// Nil when the request failed before a response (then `error` says why).
    public var response: Response?
    public var error: String?
    public var timing: Timing
    /// The cache decision's raw value (`fresh`, `revalidated`, `miss`, …).
    public var cacheDecision: String?

    /// The request side.
    public struct Request: Codable, Sendable, Hashable {
        public var method: String
        public var url: String
        /// The `# @name` of the saved request, when it has one.
        public var name: String?
        /// The collection file the request came from.
        public var collectionPath: String?
        public var headers: HTTPHeaders
        /// The request as written, variables unresolved (`{{base}}/users`), so restoring it gives the
        /// template back rather than one environment's values. Nil in entries kept before it was recorded.
        public var template: Template?
        /// Creates the value from its parts.
        public init(method: String, url: String, name: String? = nil, collectionPath: String? = nil, headers: HTTPHeaders = [],
                    template: Template? = nil) {
            self.method = method; self.url = url; self.name = name; self.collectionPath = collectionPath; self.headers = headers
            self.template = template
        }
    }

    /// A request's URL, headers and body as written in its `.http` file.
    public struct Template: Codable, Sendable, Hashable {
        public var url: String
        public var headers: HTTPHeaders
        public var body: String
        /// Creates the value from its parts.
        public init(url: String, headers: HTTPHeaders = [], body: String = "") {
            self.url = url; self.headers = headers; self.body = body
        }
    }

    /// The response side; the body itself is stored next to the entry. Stored flat (`status`, `reason`,
    /// `headers` beside the body sizes) by `HistoryEntry+ResponseCoding`, as history files have always been.
    public struct Response: Sendable, Hashable {
        /// Status, reason and headers; the version is not kept.
        public var head: ResponseHead
        /// The body's full size as received.
        public var bodyBytes: Int
        /// Bytes kept in history (less than `bodyBytes` when truncated).
        public var storedBodyBytes: Int
        /// Why the stored body differs from the received one, when it does.
        public var bodyNote: String?

        /// Creates the value from a response's head and its body's size.
        public init(head: ResponseHead, bodyBytes: Int = 0) {
            self.head = ResponseHead(status: head.status, reason: head.reason, headers: head.headers)
            self.bodyBytes = bodyBytes; self.storedBodyBytes = bodyBytes
        }

        /// Creates the value from its parts.
        public init(status: Int, reason: String? = nil, headers: HTTPHeaders = [], bodyBytes: Int = 0) {
            self.init(head: ResponseHead(status: status, reason: reason ?? "", headers: headers), bodyBytes: bodyBytes)
        }

        public var status: Int {
            get { head.status }
            set { head.status = newValue }
        }

        /// The reason phrase; nil when the server sent none.
        public var reason: String? {
            get { head.reason.isEmpty ? nil : head.reason }
            set { head.reason = newValue ?? "" }
        }

        public var headers: HTTPHeaders {
            get { head.headers }
            set { head.headers = newValue }
        }
    }

    /// Phase durations in seconds (nil when not measured).
    public struct Timing: Codable, Sendable, Hashable {
        public var total: Double?
        public var dns: Double?
        public var connect: Double?
        public var tls: Double?
        public var firstByte: Double?
        public var reusedConnection: Bool?
        /// Creates the value from its parts.
        public init(total: Double? = nil, dns: Double? = nil, connect: Double? = nil, tls: Double? = nil,
                    firstByte: Double? = nil, reusedConnection: Bool? = nil) {
            self.total = total; self.dns = dns; self.connect = connect; self.tls = tls
            self.firstByte = firstByte; self.reusedConnection = reusedConnection
        }
    }

    /// Creates the value from its parts.
    public init(date: Date = Date(), request: Request, response: Response?, error: String? = nil,
                timing: Timing = Timing(), cacheDecision: String? = nil) {
        // Milliseconds are what the stored ISO 8601 date keeps, so a loaded entry equals the recorded one.
        let date = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
        self.id = Self.makeID(date)
        self.date = date
        self.request = request
        self.response = response
        self.error = error
        self.timing = timing
        self.cacheDecision = cacheDecision
    }

    /// The key that groups entries of the same request: its name and file when saved (two files' requests
    /// of the same name never mix), else method and URL.
    public var requestKey: String {
        Self.requestKey(name: request.name, file: request.collectionPath) ?? "\(request.method) \(request.url)"
    }

    /// The key of a saved request named `name` in `file`: `name (file)`; nil for an unnamed request.
    public static func requestKey(name: String?, file: String?) -> String? {
        guard let name, !name.isEmpty else { return nil }
        guard let file, !file.isEmpty else { return name }
        return "\(name) (\(file))"
    }

    /// How dates are written in history files: ISO 8601 with milliseconds.
    static var dateFormatter: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// Encodes a date the way history files store it (for `.custom` date strategies).
    public static func encodeDate(_ date: Date, _ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dateFormatter.string(from: date))
    }

    /// Decodes a date written by `encodeDate`.
    public static func decodeDate(_ decoder: any Decoder) throws -> Date {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = dateFormatter.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
        }
        return date
    }

    static func makeID(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        // Entries made in the same millisecond keep their order: the suffix starts with this process's
        // sequence number (two hex digits), then random digits keep identifiers of other processes apart.
        let order = (entrySequence.add(1, ordering: .relaxed).oldValue & 0xFF) << 16
        let suffix = String(order | UInt32.random(in: 0..<0x10000), radix: 16)
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + "-" + pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2)
            + "-" + pad((c.nanosecond ?? 0) / 1_000_000, 3) + "-" + String(repeating: "0", count: 6 - suffix.count) + suffix
    }
}

/// How many history entries this process has made: orders identifiers made in the same millisecond.
private let entrySequence = Atomic<UInt32>(0)

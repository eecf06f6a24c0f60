import CourierHTTP
import Foundation

/// What the explorer shows of a response: computed once off the main thread, then only drawn.
public struct ResponseSummary: Sendable, Hashable {
    public var status: Int
    public var reason: String
    public var headers: HTTPHeaders
    /// The body as display lines: pretty-printed when it is JSON, hex when it is binary.
    public var bodyLines: [String]
    public var isJSON: Bool
    public var size: Int
    public var duration: Duration
    public var cache: CacheDecision
    public var url: String
    /// Set when only part of a large body is shown.
    public var truncatedNote: String?
    /// "3 tests passed, 1 failed" when the request's response handlers declared tests.
    public var tests: String?

    public init(status: Int, reason: String, headers: HTTPHeaders, bodyLines: [String], isJSON: Bool, size: Int,
                duration: Duration, cache: CacheDecision, url: String, truncatedNote: String? = nil) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.bodyLines = bodyLines
        self.isJSON = isJSON
        self.size = size
        self.duration = duration
        self.cache = cache
        self.url = url
        self.truncatedNote = truncatedNote
    }
}

/// How the last send ended, when it did not give a response.
public struct SendFailure: Sendable, Hashable {
    /// `APIError.kind`.
    public var kind: String
    public var message: String
    public init(kind: String, message: String) { self.kind = kind; self.message = message }
}

/// The response pane: what is shown and how far it is scrolled.
public struct ResponseState: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        case idle
        case sending(method: String, url: String)
        case received(ResponseSummary)
        case failed(SendFailure)
        case cancelled
    }
    public enum Tab: Sendable, Hashable { case body, headers }

    public var phase: Phase = .idle
    public var tab: Tab = .body
    public var scroll = 0
    /// Whether long lines wrap instead of being cut.
    public var wrap = false

    public init() {}

    /// The lines of the tab shown.
    public var lines: [String] {
        guard case .received(let summary) = phase else { return [] }
        switch tab {
        case .body: return summary.bodyLines + (summary.truncatedNote.map { ["", $0] } ?? [])
        case .headers: return summary.headers.fields.map { "\($0.name): \($0.value)" }
        }
    }
}

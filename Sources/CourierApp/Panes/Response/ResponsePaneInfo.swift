import CourierBody
import CourierHistory
import CourierMessage
import Foundation

/// What the response pane shows above the body: plain values the app fills from an `HTTPResponse`
/// (the one header list, no client core types, so the pane can also show a history entry).
public struct ResponsePaneInfo: Sendable, Hashable, ResponseHeadHolder {
    /// Status line and headers, as the response or the history entry holds them.
    public var head: ResponseHead
    /// Total time in seconds, when measured.
    public var duration: Double?
    /// The cache decision's raw value (`fresh`, `miss`, …), coloured by `Theme.cache`.
    public var cacheDecision: String?
    /// "3 tests passed, 1 failed" when the request's response handlers declared tests.
    public var tests: String?
    /// Whether any of those tests failed (or a handler stopped on an error).
    public var testsFailed = false
    /// The server's certificate was not verified (`# @insecure`, an environment's `verifyHostCertificate:
    /// false`): the status line says so in the error colour, as the command line warns.
    public var unverifiedTLS = false
    /// The attempts the send took, and the time from the send to the answer (retries and waits included),
    /// when the explorer sent it.
    public var attempts: Int?
    public var elapsed: Double?
    /// The body's size on the wire before a Content-Encoding was decoded; 0 when unknown or not encoded.
    public var wireBytes: Int
    /// Why the body is shown as the server sent it (a Content-Encoding Courier cannot decode), or nil.
    public var encodingNote: String?

    /// Creates the value from a response's head.
    public init(head: ResponseHead, duration: Double? = nil, cacheDecision: String? = nil, wireBytes: Int = 0) {
        self.head = head
        self.duration = duration
        self.cacheDecision = cacheDecision
        self.wireBytes = wireBytes
    }

    /// Creates the value from its parts.
    public init(status: Int, reason: String, duration: Double? = nil, cacheDecision: String? = nil,
                headers: HTTPHeaders = [], wireBytes: Int = 0) {
        self.init(head: ResponseHead(status: status, reason: reason, headers: headers), duration: duration,
                  cacheDecision: cacheDecision, wireBytes: wireBytes)
    }

    /// `200 OK`, or just `200` when the server sent no reason phrase (HTTP/2 and HTTP/3 have none).
    public var statusText: String { reason.isEmpty ? "\(status)" : "\(status) \(reason)" }

    /// The Content-Type header's value.
    public var contentType: String? {
        headers["Content-Type"]
    }
}

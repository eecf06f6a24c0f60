import Foundation

/// Sends one attempt of a request. Cancelling the calling Task must abort the transfer and throw
/// `APIError.cancelled`; every other failure is an `APIError` too (typed throws: callers switch on its cases,
/// never cast).
public protocol Transport: Sendable {
    func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse
}

/// What travels with one logical request through the pipeline: its identity, the attempt number,
/// where events go, and optional streaming hooks.
public struct RequestContext: Sendable {
    public var id: RequestID
    /// 1 for the first attempt; the retry middleware increments it.
    public var attempt: Int
    public var events: EventSink
    /// Called on the transport's thread as bytes arrive; keep it cheap.
    public var onProgress: (@Sendable (TransferProgress) -> Void)?
    /// Called with each chunk of the body as it arrives, for streamed views (SSE, NDJSON).
    public var onChunk: (@Sendable (Data) -> Void)?
    /// Called once per response that reaches the caller, as soon as its head (status line and
    /// headers) is complete and before the first `onChunk`: once per attempt for the network (the
    /// final head, after redirects and interim 1xx responses), once for an answer from the cache.
    /// On the transport's thread; keep it cheap.
    public var onHead: (@Sendable (ResponseHead) -> Void)?
    /// Asked after each `onChunk`: false once the caller has the body from `onChunk` alone (a stream
    /// printed as it arrives). The transport then drops what it kept, keeps nothing more and applies no
    /// size limit; the response's body is empty. Nil keeps the whole body.
    public var keepsBody: (@Sendable () -> Bool)?
    /// Asked after each `onChunk`: an error stops the transfer and is what it fails with (a record of a
    /// streamed body past its size limit). Nil, or a nil answer, goes on.
    public var streamFailure: (@Sendable () -> APIError?)?
    /// Called with each request head exactly as it went out (the request line and every header field,
    /// those the transport added included; HTTP/2 written as curl shows it), for `courier send -v`. On the
    /// transport's thread. Nil asks the transport for nothing.
    public var onRequestHead: (@Sendable (String) -> Void)?

    /// A context for a new logical request, with optional streaming hooks.
    public init(id: RequestID = RequestID.next(), attempt: Int = 1, events: EventSink = .none,
                onProgress: (@Sendable (TransferProgress) -> Void)? = nil,
                onChunk: (@Sendable (Data) -> Void)? = nil,
                onHead: (@Sendable (ResponseHead) -> Void)? = nil) {
        self.id = id
        self.attempt = attempt
        self.events = events
        self.onProgress = onProgress
        self.onChunk = onChunk
        self.onHead = onHead
    }
}

/// Progress of one transfer.
public struct TransferProgress: Sendable, Hashable {
    public var received: Int
    /// From Content-Length, when the server sent one.
    public var expected: Int?
    public var elapsed: Duration
    public init(received: Int, expected: Int?, elapsed: Duration) {
        self.received = received
        self.expected = expected
        self.elapsed = elapsed
    }
}

/// Identifies one logical request across its attempts.
public struct RequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public static func < (a: RequestID, b: RequestID) -> Bool { a.value < b.value }
    public var description: String { "#\(value)" }

    private static let counter = IDCounter()
    /// A process-unique identifier.
    public static func next() -> RequestID { RequestID(counter.next()) }
}

import Synchronization

private final class IDCounter: Sendable {
    private let value = Atomic<UInt64>(0)
    func next() -> UInt64 { value.add(1, ordering: .relaxed).newValue }
}

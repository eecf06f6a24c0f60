import Foundation

/// Runs a JSONPath filter over a response body on a background task: one streaming pass (see
/// `JSONPathStream`) that publishes the bytes read and the matches found so far, can be cancelled, and
/// ends in a pretty document of the matches (an array, as `JSONPath.filter` gives) or a `BodyError`.
/// A body still arriving is read as it grows.
///
/// `@unchecked Sendable`: progress, the match count and the outcome are guarded by `lock`; the task
/// writes them, the viewer reads them.
public final class BodyFilter: @unchecked Sendable {
    /// What a finished filter produced.
    public struct Output: Sendable {
        /// How many values the path selected.
        public var matches: Int
        /// The selected values as one pretty JSON array.
        public var document: PrettyJSONDocument
    }

    public let path: JSONPath
    private let lock = NSLock()
    private var scanned = 0
    private var total = 0
    private var found = 0
    private var outcome: Result<Output, BodyError>?
    private var task: Task<Void, Never>?

    /// Bytes read per step: the grain of cancellation and progress.
    public static let stepBytes = 256 << 10
    /// How long to wait for more of a body still arriving before looking again.
    static let arrivalPoll: TimeInterval = 0.02

    /// Starts filtering `body` in the background.
    public init(_ path: JSONPath, body: BodyDocument) {
        self.path = path
        total = body.byteCount
        // The worker holds the filter weakly, between steps only: dropping the filter (a new response
        // replaces the pane) deinitialises it, which cancels the worker.
        task = Task.detached(priority: .userInitiated) { [weak self] in
            Self.run(path, body) { self }
        }
    }

    /// Starts filtering bytes already in memory.
    public convenience init(_ path: JSONPath, data: Data) {
        self.init(path, body: BodyDocument(data: data))
    }

    deinit { task?.cancel() }

    /// Stops the filter; it then never finishes.
    public func cancel() { task?.cancel() }

    /// Waits until the filter has finished or was cancelled.
    public func wait() async { await task?.value }

    /// Whether the filter has finished, with a result or an error.
    public var isFinished: Bool { lock.withLock { outcome != nil } }

    /// Bytes read so far and the body's size so far.
    public var bytes: (scanned: Int, total: Int) { lock.withLock { (scanned, total) } }

    /// Fraction of the body read (0…1).
    public var progress: Double {
        lock.withLock { outcome != nil ? 1 : total == 0 ? 0 : Double(scanned) / Double(total) }
    }

    /// Matches found so far.
    public var matchCount: Int { lock.withLock { found } }

    /// The result, once finished without an error.
    public var output: Output? { lock.withLock { try? outcome?.get() } }

    /// Why the filter failed (the body is not JSON), once finished.
    public var error: BodyError? {
        lock.withLock {
            if case let .failure(error) = outcome { return error }
            return nil
        }
    }

    private static func run(_ path: JSONPath, _ body: BodyDocument, owner: () -> BodyFilter?) {
        var stream = JSONPathStream(path, includePaths: false)
        // The pass reads its own reference to the bytes (shared, not copied), never under the body's lock:
        // a worker taking that lock step after step would starve the viewer, which reads the body too.
        // While the body is still arriving the reference is renewed each step.
        var received = body.isReceived
        var bytes = body.bytes
        while !Task.isCancelled {
            if !received {
                // Read before the bytes: when it says the body is complete, the bytes read next are all of it.
                received = body.isReceived
                bytes = body.bytes
            }
            let before = stream.offset
            let final = received
            let failure: BodyError? = bytes.withUnsafeBytes { raw in
                do throws(BodyError) {
                    try stream.advance(raw, isFinal: final, budget: stepBytes)
                } catch {
                    return error
                }
                return nil
            }
            guard let filter = owner() else { return }
            if let failure {
                filter.lock.withLock { filter.outcome = .failure(failure) }
                return
            }
            let size = bytes.count
            filter.lock.withLock {
                filter.scanned = stream.offset
                filter.total = size
                filter.found = stream.matchCount
            }
            if stream.isFinished { break }
            // Nothing new yet: the body is still arriving.
            if stream.offset == before, !received { Thread.sleep(forTimeInterval: arrivalPoll) }
        }
        guard !Task.isCancelled else { return }
        let matches = stream.finish()
        let document = JSONPath.document(of: matches)
        // Indexed here, in the background, so the view knows its line count from the start.
        while !Task.isCancelled, !document.indexMore() {}
        guard !Task.isCancelled, let filter = owner() else { return }
        filter.lock.withLock {
            filter.found = matches.count
            filter.outcome = .success(Output(matches: matches.count, document: document))
        }
    }
}

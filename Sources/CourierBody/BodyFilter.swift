import Foundation

/// Runs a JSONPath filter over a response body, step by step on the caller's thread: one streaming pass
/// (see `JSONPathStream`) that reports the bytes read and the matches found so far, and ends in a pretty
/// document of the matches (an array, as `JSONPath.filter` gives) or a `BodyError`. A body still arriving is
/// read as it grows. It starts nothing by itself: the explorer runs it inside an effect, off the loop thread,
/// and cancels it by generation.
public struct BodyFilter: Sendable, Hashable {
    /// What a finished filter produced.
    public struct Output: Sendable {
        /// How many values the path selected.
        public var matches: Int
        /// The selected values as one pretty JSON array.
        public var document: PrettyJSONDocument
    }

    /// How far a running filter got.
    public struct Progress: Sendable, Hashable {
        /// Bytes read so far.
        public var scanned: Int
        /// The body's size so far.
        public var total: Int
        /// Matches found so far.
        public var matches: Int

        /// Creates the value from its parts.
        public init(scanned: Int, total: Int, matches: Int) {
            self.scanned = scanned
            self.total = total
            self.matches = matches
        }

        /// Fraction of the body read (0…1).
        public var fraction: Double { total == 0 ? 0 : Double(scanned) / Double(total) }
    }

    public let path: JSONPath

    /// Bytes read per step: the grain of cancellation and progress.
    public static let stepBytes = 256 << 10
    /// How long to wait for more of a body still arriving before looking again.
    static let arrivalPoll: TimeInterval = 0.02

    /// A filter by `path`.
    public init(_ path: JSONPath) { self.path = path }

    /// Filters `body` to its end, calling `report` after every step. Returns the outcome, or nil when
    /// `isCancelled` answered true first.
    public func run(over body: BodyDocument, isCancelled: () -> Bool,
                    report: (Progress) -> Void) -> Result<Output, BodyError>? {
        var stream = JSONPathStream(path, includePaths: false)
        // The pass reads its own reference to the bytes (shared, not copied), never under the body's lock:
        // a worker taking that lock step after step would starve the viewer, which reads the body too.
        // While the body is still arriving the reference is renewed each step.
        var received = body.isReceived
        var bytes = body.bytes
        while !isCancelled() {
            if !received {
                // Read before the bytes: when it says the body is complete, the bytes read next are all of it.
                received = body.isReceived
                bytes = body.bytes
            }
            let before = stream.offset
            let final = received
            let failure: BodyError? = bytes.withUnsafeBytes { raw in
                do throws(BodyError) {
                    try stream.advance(raw, isFinal: final, budget: Self.stepBytes)
                } catch {
                    return error
                }
                return nil
            }
            if let failure { return .failure(failure) }
            report(Progress(scanned: stream.offset, total: bytes.count, matches: stream.matchCount))
            if stream.isFinished { break }
            // Nothing new yet: the body is still arriving.
            if stream.offset == before, !received { Thread.sleep(forTimeInterval: Self.arrivalPoll) }
        }
        guard !isCancelled() else { return nil }
        let matches = stream.finish()
        let document = JSONPath.document(of: matches)
        // Indexed here, in the background, so the view knows its line count from the start.
        while !isCancelled(), !document.indexMore() {}
        guard !isCancelled() else { return nil }
        return .success(Output(matches: matches.count, document: document))
    }
}

import Foundation

/// One search hit: the line and the character range within that line's display text.
public struct SearchHit: Sendable, Hashable, Comparable {
    public var line: Int
    public var columns: Range<Int>
    /// Creates the value from its parts.
    public init(line: Int, columns: Range<Int>) { self.line = line; self.columns = columns }
    /// Document order: by line, then column.
    public static func < (a: SearchHit, b: SearchHit) -> Bool {
        a.line != b.line ? a.line < b.line : a.columns.lowerBound < b.columns.lowerBound
    }
}

/// What to look for: plain text (optionally ignoring case) or a regular expression.
public struct SearchQuery: Sendable, Hashable {
    public var pattern: String
    public var caseInsensitive: Bool
    public var isRegex: Bool
    /// Creates the value from its parts.
    public init(_ pattern: String, caseInsensitive: Bool = true, isRegex: Bool = false) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.isRegex = isRegex
    }
}

/// Finds every match of a query in a line source, step by step on the caller's thread, reporting each step's
/// hits and progress. It starts nothing by itself: the explorer runs it inside an effect, off the loop thread,
/// turns each report into an action and cancels it by generation.
public struct BodySearch: Sendable, Hashable {
    /// What one step found: the hits new since the previous report, in document order, and how far it got.
    public struct Progress: Sendable, Hashable {
        public var hits: [SearchHit]
        /// Fraction of lines searched (0…1); the total grows while the source is still being indexed.
        public var fraction: Double
        /// Whether the whole source has been searched (or the most hits kept were found).
        public var isFinished: Bool

        /// Creates the value from its parts.
        public init(hits: [SearchHit], fraction: Double, isFinished: Bool) {
            self.hits = hits
            self.fraction = fraction
            self.isFinished = isFinished
        }
    }

    public let query: SearchQuery
    private let matcher: LineMatcher
    /// Most hits kept, so a search for "e" in 50 MB does not hold millions of ranges.
    public static let maxHits = 100_000
    /// Lines scanned per step: the grain of progress and cancellation.
    static let stepLines = 8_192

    /// A search for `query`; an invalid regular expression is an error here, before any work starts.
    public init(_ query: SearchQuery) throws(BodyError) {
        self.query = query
        matcher = try LineMatcher(query)
    }

    /// Searches `source` to its end, indexing it on the way and waiting for a body still arriving. Calls
    /// `report` after every step; the last report says finished. Returns early, with no finished report,
    /// once `isCancelled` answers true.
    public func run(in source: any LineSource, isCancelled: () -> Bool, report: (Progress) -> Void) {
        var line = 0
        var found = 0
        var fraction = 0.0
        var batch: [SearchHit] = []
        var candidates: [Int] = []
        while !isCancelled() {
            // Scan raw line bytes first; only lines that may match are decoded to find their columns.
            candidates.removeAll(keepingCapacity: true)
            let visited = source.forEachLineBytes(from: line, limit: Self.stepLines) { index, bytes in
                if matcher.mayMatch(bytes) { candidates.append(index) }
            }
            if visited == 0 {
                if source.isComplete { break }
                // Nothing new yet: the body is still arriving, so wait a little for more.
                if source.indexMore() { Thread.sleep(forTimeInterval: 0.02) }
                continue
            }
            for index in candidates {
                for columns in matcher.matches(in: source.line(index)) { batch.append(SearchHit(line: index, columns: columns)) }
            }
            line += visited
            let kept = Array(batch.prefix(Self.maxHits - found))
            found += kept.count
            batch.removeAll(keepingCapacity: true)
            // Full: the last step's hits go with the finished report.
            if found >= Self.maxHits { batch = kept; break }
            let count = source.lineCount
            let total = source.isComplete ? count : max(count, line + 1)
            // Never backwards: the total grows while the index catches up, which would lower the share.
            fraction = max(fraction, total == 0 ? 0 : Double(line) / Double(total))
            report(Progress(hits: kept, fraction: fraction, isFinished: false))
        }
        guard !isCancelled() else { return }
        report(Progress(hits: batch, fraction: 1, isFinished: true))
    }

    /// Every hit in `source`, searched on the calling thread to the end.
    public func hits(in source: any LineSource) -> SearchHits {
        var hits = SearchHits()
        run(in: source, isCancelled: { false }) { hits.append(contentsOf: $0.hits) }
        return hits
    }

    /// Two searches are the same when their queries are (the matcher is built from the query).
    public static func == (a: BodySearch, b: BodySearch) -> Bool { a.query == b.query }
    public func hash(into hasher: inout Hasher) { hasher.combine(query) }
}

/// Matches one query against one line of text, returning character ranges.
struct LineMatcher: Sendable {
    private let needle: String
    private let options: String.CompareOptions
    private let regex: NSRegularExpression?

    /// The needle's bytes for the byte prefilter (lowercased when ASCII and case-insensitive); nil when
    /// bytes cannot decide (a regex, or a case-insensitive non-ASCII needle).
    private let bytes: [UInt8]?
    private let foldCase: Bool

    init(_ query: SearchQuery) throws(BodyError) {
        needle = query.pattern
        let utf8 = Array(query.pattern.utf8)
        foldCase = query.caseInsensitive
        if query.isRegex || utf8.isEmpty || (query.caseInsensitive && utf8.contains { $0 >= 0x80 }) {
            bytes = nil
        } else {
            bytes = query.caseInsensitive ? utf8.map(Self.lower) : utf8
        }
        options = query.caseInsensitive ? [.caseInsensitive] : []
        if query.isRegex {
            do {
                regex = try NSRegularExpression(pattern: query.pattern, options: query.caseInsensitive ? [.caseInsensitive] : [])
            } catch {
                throw .invalidPattern(pattern: query.pattern)
            }
        } else {
            regex = nil
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Whether `line` may hold a match (exact for plain needles; always true when bytes cannot decide).
    func mayMatch(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let needle = bytes else { return true }
        let count = line.count, length = needle.count
        guard length <= count else { return false }
        let first = needle[0]
        var position = 0
        let last = count - length
        while position <= last {
            let byte = foldCase ? Self.lower(line[position]) : line[position]
            if byte == first {
                var index = 1
                while index < length {
                    let other = foldCase ? Self.lower(line[position + index]) : line[position + index]
                    if other != needle[index] { break }
                    index += 1
                }
                if index == length { return true }
            }
            position += 1
        }
        return false
    }

    /// Character ranges of every non-overlapping match in `text`.
    func matches(in text: String) -> [Range<Int>] {
        guard !needle.isEmpty else { return [] }
        if let regex {
            let range = NSRange(text.startIndex..., in: text)
            return regex.matches(in: text, range: range).compactMap { match in
                guard match.range.length > 0, let found = Range(match.range, in: text) else { return nil }
                return characterRange(found, in: text)
            }
        }
        var out: [Range<Int>] = []
        var from = text.startIndex
        while from < text.endIndex, let found = text.range(of: needle, options: options, range: from..<text.endIndex) {
            out.append(characterRange(found, in: text))
            from = found.upperBound
        }
        return out
    }

    private func characterRange(_ range: Range<String.Index>, in text: String) -> Range<Int> {
        let start = text.distance(from: text.startIndex, to: range.lowerBound)
        return start..<start + text.distance(from: range.lowerBound, to: range.upperBound)
    }
}

import Foundation

/// One search hit: the line and the character range within that line's display text.
public struct SearchHit: Sendable, Hashable, Comparable {
    public var line: Int
    public var columns: Range<Int>
    public init(line: Int, columns: Range<Int>) { self.line = line; self.columns = columns }
    public static func < (a: SearchHit, b: SearchHit) -> Bool {
        a.line != b.line ? a.line < b.line : a.columns.lowerBound < b.columns.lowerBound
    }
}

/// What to look for: plain text (optionally ignoring case) or a regular expression.
public struct SearchQuery: Sendable, Hashable {
    public var pattern: String
    public var caseInsensitive: Bool
    public var isRegex: Bool
    public init(_ pattern: String, caseInsensitive: Bool = true, isRegex: Bool = false) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.isRegex = isRegex
    }
}

/// Finds every match of a query in a line source on a background task, publishing hits as they are
/// found with progress, and cancellable. Next/previous hit lookups are binary searches over the hits so far.
///
/// `@unchecked Sendable`: hits and progress are guarded by `lock`; the task writes, the viewer reads.
public final class BodySearch: @unchecked Sendable {
    public let query: SearchQuery
    private let lock = NSLock()
    private var foundHits: [SearchHit] = []
    private var linesSearched = 0
    private var totalLines = 0
    private var done = false
    private var task: Task<Void, Never>?
    /// Most hits kept, so a search for "e" in 50 MB does not hold millions of ranges.
    public static let maxHits = 100_000

    /// Starts searching `source` in the background (the source is indexed along the way).
    public init(_ query: SearchQuery, in source: any LineSource) throws(BodyError) {
        self.query = query
        let matcher = try LineMatcher(query)
        task = Task.detached(priority: .userInitiated) { [weak self] in
            self?.run(matcher, source)
        }
    }

    deinit { task?.cancel() }

    /// Stops the search; hits found so far remain.
    public func cancel() { task?.cancel() }

    /// Waits until the search has finished or was cancelled.
    public func wait() async { await task?.value }

    /// Hits found so far, in document order.
    public var hits: [SearchHit] { lock.withLock { foundHits } }

    /// Whether the whole source has been searched.
    public var isFinished: Bool { lock.withLock { done } }

    /// Fraction of lines searched (0…1); the total grows while the source is still being indexed.
    public var progress: Double {
        lock.withLock { done ? 1 : totalLines == 0 ? 0 : Double(linesSearched) / Double(totalLines) }
    }

    /// The first hit after `position` (wrapping to the first hit), or nil when there are none yet.
    public func next(after position: SearchHit) -> SearchHit? {
        lock.withLock {
            guard !foundHits.isEmpty else { return nil }
            let index = upperBound(position)
            return index < foundHits.count ? foundHits[index] : foundHits[0]
        }
    }

    /// The last hit before `position` (wrapping to the last hit).
    public func previous(before position: SearchHit) -> SearchHit? {
        lock.withLock {
            guard !foundHits.isEmpty else { return nil }
            var low = 0, high = foundHits.count
            while low < high {
                let mid = (low + high) / 2
                if foundHits[mid] < position { low = mid + 1 } else { high = mid }
            }
            return low > 0 ? foundHits[low - 1] : foundHits[foundHits.count - 1]
        }
    }

    /// Hits on one line (for highlighting the visible lines).
    public func hits(onLine line: Int) -> [SearchHit] {
        lock.withLock {
            var index = upperBound(SearchHit(line: line, columns: -1 ..< -1))
            var out: [SearchHit] = []
            while index < foundHits.count, foundHits[index].line == line { out.append(foundHits[index]); index += 1 }
            return out
        }
    }

    private func upperBound(_ position: SearchHit) -> Int {
        var low = 0, high = foundHits.count
        while low < high {
            let mid = (low + high) / 2
            if position < foundHits[mid] { high = mid } else { low = mid + 1 }
        }
        return low
    }

    private func run(_ matcher: LineMatcher, _ source: any LineSource) {
        var line = 0
        var batch: [SearchHit] = []
        var candidates: [Int] = []
        while !Task.isCancelled {
            // Scan raw line bytes first; only lines that may match are decoded to find their columns.
            candidates.removeAll(keepingCapacity: true)
            let visited = source.forEachLineBytes(from: line, limit: 8_192) { index, bytes in
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
            let count = source.lineCount
            let full = lock.withLock {
                foundHits += batch.prefix(Self.maxHits - foundHits.count)
                linesSearched = line
                totalLines = source.isComplete ? count : max(count, line + 1)
                return foundHits.count >= Self.maxHits
            }
            batch.removeAll(keepingCapacity: true)
            if full || Task.isCancelled { break }
        }
        let cancelled = Task.isCancelled
        lock.withLock { done = !cancelled }
    }
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

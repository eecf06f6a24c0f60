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
        while !Task.isCancelled {
            var count = source.lineCount
            if line >= count {
                if source.isComplete { break }
                // Nothing left to index yet: the body is still arriving, so wait a little for more.
                if source.indexMore() { Thread.sleep(forTimeInterval: 0.02) }
                count = source.lineCount
                lock.withLock { totalLines = count }
                continue
            }
            lock.withLock { totalLines = source.isComplete ? count : max(count, line + 1) }
            let end = min(count, line + 4_096)
            while line < end {
                for columns in matcher.matches(in: source.line(line)) { batch.append(SearchHit(line: line, columns: columns)) }
                line += 1
            }
            let full = lock.withLock {
                foundHits += batch.prefix(Self.maxHits - foundHits.count)
                linesSearched = line
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

    init(_ query: SearchQuery) throws(BodyError) {
        needle = query.pattern
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

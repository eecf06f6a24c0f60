import Foundation

/// A response body held in memory or memory-mapped from disk, with a line index built once, in chunks,
/// so the first screen is ready long before a large body is indexed. Bytes may be appended while a
/// body streams in.
///
/// `@unchecked Sendable`: every stored property is read and written under `lock`; the viewer reads
/// lines while a background task extends the index.
public final class BodyDocument: LineSource, @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data
    /// Offsets of known line starts; `starts[0] == 0`.
    private var starts: [Int] = [0]
    /// Bytes scanned for newlines so far.
    private var scanned = 0
    private var finished: Bool

    /// Bytes scanned per `indexMore()` call: large enough to be fast, small enough to keep the lock short
    /// (about 2 ms on a slow machine, so a frame waiting for the lock never waits long).
    public static let indexChunkBytes = 1 << 20

    /// A body already in memory; `complete: false` when more bytes will be appended.
    public init(data: Data, complete: Bool = true) {
        self.data = data
        self.finished = complete
    }

    /// A body stored in a file, memory-mapped so only the pages on screen are read.
    public convenience init(contentsOf url: URL) throws(BodyError) {
        do {
            self.init(data: try Data(contentsOf: url, options: .alwaysMapped))
        } catch {
            throw .unreadable(path: url.path, reason: "\(error)")
        }
    }

    /// Appends bytes of a body still arriving.
    public func append(_ chunk: Data) {
        lock.withLock { data.append(chunk) }
    }

    /// Marks the body as complete: no more bytes will arrive.
    public func finish() { lock.withLock { finished = true } }

    /// Whether every byte has arrived (`finish()` was called, or the body was complete from the start).
    public var isReceived: Bool { lock.withLock { finished } }

    /// The body's size in bytes so far.
    public var byteCount: Int { lock.withLock { data.count } }

    /// A copy of the bytes (for a mapped body this shares the mapping).
    public var bytes: Data { lock.withLock { data } }

    // MARK: Index

    /// Scans the next chunk for line starts; true once every byte received so far is indexed.
    @discardableResult
    public func indexMore() -> Bool {
        lock.withLock {
            scan(upTo: min(data.count, scanned + Self.indexChunkBytes))
            return scanned == data.count
        }
    }

    /// Indexes until at least `count` lines are known or the bytes run out.
    public func ensureLines(_ count: Int) {
        lock.withLock {
            while starts.count <= count && scanned < data.count {
                scan(upTo: min(data.count, scanned + 256 << 10))
            }
        }
    }

    /// Whether the index covers the whole (finished) body.
    public var isComplete: Bool { lock.withLock { finished && scanned == data.count } }

    /// Lines known so far; when every byte is scanned this counts a last line without a newline too.
    public var lineCount: Int { lock.withLock { knownLines } }

    private var knownLines: Int {
        if scanned < data.count { return starts.count - 1 }
        return starts.last! < data.count ? starts.count : starts.count - 1
    }

    private func scan(upTo end: Int) {
        guard scanned < end else { return }
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            var position = scanned
            while position < end {
                guard let hit = memchr(base + position, 0x0A, end - position) else { break }
                let offset = base.distance(to: UnsafeRawPointer(hit))
                starts.append(offset + 1)
                position = offset + 1
            }
        }
        scanned = end
    }

    // MARK: Lines

    /// The byte range of line `index` without its newline (and without a trailing CR).
    public func lineRange(_ index: Int) -> Range<Int> {
        if index >= 0 { ensureLines(index + 2) }
        return lock.withLock { rangeLocked(index) }
    }

    private func rangeLocked(_ index: Int) -> Range<Int> {
        guard index >= 0, index < knownLines else { return 0..<0 }
        let start = starts[index]
        var end = index + 1 < starts.count ? starts[index + 1] - 1 : data.count
        if end > start, data[data.startIndex + end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// Line `index` as text: invalid UTF-8 becomes U+FFFD, lines past `LineLimits.maxLineBytes` are cut with a note.
    public func line(_ index: Int) -> String {
        let range = lineRange(index)
        return lock.withLock {
            data.withUnsafeBytes { LineLimits.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
    }

    /// The line holding byte `offset` (binary search over the index built so far).
    public func line(containingByte offset: Int) -> Int {
        lock.withLock {
            while scanned <= offset && scanned < data.count { scan(upTo: min(data.count, scanned + 1 << 20)) }
            var low = 0, high = starts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if starts[mid] <= offset { low = mid } else { high = mid - 1 }
            }
            return low
        }
    }

    /// See `LineSource`.
    public func forEachLineBytes(from start: Int, limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Void) -> Int {
        ensureLines(start + limit + 1)
        return lock.withLock {
            let end = min(knownLines, start + limit)
            guard start < end else { return 0 }
            data.withUnsafeBytes { raw in
                for index in start..<end { body(index, UnsafeRawBufferPointer(rebasing: raw[rangeLocked(index)])) }
            }
            return end - start
        }
    }

    /// Runs `body` over the raw bytes without copying them.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try lock.withLock { try data.withUnsafeBytes(body) }
    }
}

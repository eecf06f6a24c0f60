import Foundation

/// JSON pretty-printed lazily from the raw bytes: lines are produced on demand, and the tokenizer state
/// is kept every `checkpointStride` lines, so showing line K restarts from the nearest checkpoint instead
/// of formatting the document. A one-line 50 MB body shows its first screen after a few hundred tokens.
/// `indexMore()` (run in the background) extends the checkpoints to the end, which gives the line count.
///
/// `@unchecked Sendable`: checkpoints, the frontier and the block cache are guarded by `lock`; `data` is
/// immutable.
public final class PrettyJSONDocument: LineSource, @unchecked Sendable {
    /// Lines between two checkpoints: the most a random access has to regenerate.
    public static let checkpointStride = 64
    /// Lines the frontier advances per `indexMore()` call.
    static let indexBatchLines = 100_000

    private let data: Data
    private let lock = NSLock()
    private var checkpoints: [PrettyCursor] = [PrettyCursor()]
    /// Lines from the start to `frontier`, the cursor after the last indexed line.
    private var frontierLine = 0
    private var frontier = PrettyCursor()
    private var finished = false
    private var cachedBlock: (index: Int, lines: [PrettyCursor.Line])?

    /// A pretty view of `data` (share a mapped body's Data: nothing is copied).
    public init(data: Data) { self.data = data }

    /// The raw JSON bytes.
    public var bytes: Data { data }

    /// Whether the body failed to tokenize, and where.
    public var failure: JSONTokenizerFailure? {
        lock.withLock { finished ? frontier.tokenizer.failure : nil }
    }

    /// Lines known so far; final once `isComplete`.
    public var lineCount: Int { lock.withLock { frontierLine } }

    public var isComplete: Bool { lock.withLock { finished } }

    /// Advances a copy of the frontier without holding the lock (the bytes never change), then publishes
    /// it: a frame drawn meanwhile reads lines without waiting for the batch, which takes a good part of
    /// a second on a slow machine.
    @discardableResult
    public func indexMore() -> Bool {
        let (start, startLine, done) = lock.withLock { (frontier, frontierLine, finished) }
        if done { return true }
        var cursor = start
        var line = startLine
        var ended = false
        var found: [(index: Int, cursor: PrettyCursor)] = []
        data.withUnsafeBytes { bytes in
            var scratch = PrettyCursor.Line()
            while line < startLine + Self.indexBatchLines {
                guard cursor.next(bytes, into: &scratch, collect: false) else { ended = true; return }
                line += 1
                if line % Self.checkpointStride == 0 { found.append((line / Self.checkpointStride, cursor)) }
            }
        }
        return lock.withLock {
            // A frame reading far ahead may have moved the frontier meanwhile; the walk is deterministic,
            // so its checkpoints equal ours and only the ones past it are added.
            guard !finished, line > frontierLine || (ended && line == frontierLine) else { return finished }
            for checkpoint in found where checkpoint.index == checkpoints.count { checkpoints.append(checkpoint.cursor) }
            frontier = cursor
            frontierLine = line
            if ended { finished = true }
            return finished
        }
    }

    /// Advances the frontier until it passes `target` lines or the body ends. Call with the lock held.
    private func extend(to target: Int) {
        guard !finished, frontierLine < target else { return }
        data.withUnsafeBytes { bytes in
            var scratch = PrettyCursor.Line()
            while frontierLine < target {
                guard frontier.next(bytes, into: &scratch, collect: false) else { finished = true; return }
                frontierLine += 1
                if frontierLine % Self.checkpointStride == 0 { checkpoints.append(frontier) }
            }
        }
    }

    // MARK: Lines

    /// The token layout of line `index`, from the nearest checkpoint; nil past the end.
    func layout(_ index: Int) -> PrettyCursor.Line? {
        guard index >= 0 else { return nil }
        return lock.withLock {
            extend(to: index + 1)
            guard index < frontierLine else { return nil }
            let block = index / Self.checkpointStride
            if let cached = cachedBlock, cached.index == block { return cached.lines[index % Self.checkpointStride] }
            var cursor = checkpoints[block]
            var lines: [PrettyCursor.Line] = []
            lines.reserveCapacity(Self.checkpointStride)
            data.withUnsafeBytes { bytes in
                for _ in 0..<Self.checkpointStride {
                    var line = PrettyCursor.Line()
                    guard cursor.next(bytes, into: &line, collect: true) else { break }
                    lines.append(line)
                }
            }
            cachedBlock = (block, lines)
            let offset = index % Self.checkpointStride
            return offset < lines.count ? lines[offset] : nil
        }
    }

    /// See `LineSource`.
    public func line(_ index: Int) -> String { coloredLine(index).text }

    /// See `LineSource`.
    public func coloredLine(_ index: Int) -> ColoredLine {
        guard let layout = layout(index) else { return ColoredLine(text: "") }
        return data.withUnsafeBytes { Self.render(layout, bytes: $0) }
    }

    /// Builds the text and colour spans of one laid-out line.
    static func render(_ layout: PrettyCursor.Line, bytes: UnsafeRawBufferPointer) -> ColoredLine {
        if let raw = layout.raw {
            let text = LineLimits.decode(UnsafeRawBufferPointer(rebasing: bytes[raw]))
            return ColoredLine(text: text, spans: [ColoredLine.Span(0..<text.count, .invalid)])
        }
        let indent = min(layout.depth, LineLimits.maxIndentLevels) * 2
        var text = String(repeating: " ", count: indent)
        var spans: [ColoredLine.Span] = []
        var column = indent
        for token in layout.tokens {
            let piece = token.kind == .colon ? ": " : LineLimits.decode(UnsafeRawBufferPointer(rebasing: bytes[token.range]))
            let length = piece.count
            spans.append(ColoredLine.Span(column..<column + length, token.kind.role))
            text += piece
            column += length
        }
        return ColoredLine(text: text, spans: spans)
    }

    /// See `LineSource`.
    public func forEachLineBytes(from start: Int, limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Void) -> Int {
        guard start >= 0 else { return 0 }
        let (cursor, first, end) = lock.withLock { () -> (PrettyCursor, Int, Int) in
            extend(to: start + limit)
            let block = min(start / Self.checkpointStride, checkpoints.count - 1)
            return (checkpoints[block], block * Self.checkpointStride, min(frontierLine, start + limit))
        }
        guard start < end else { return 0 }
        var walker = cursor
        var layout = PrettyCursor.Line()
        var text: [UInt8] = []
        data.withUnsafeBytes { bytes in
            var index = first
            while index < end, walker.next(bytes, into: &layout, collect: index >= start) {
                if index >= start {
                    text.removeAll(keepingCapacity: true)
                    Self.appendBytes(layout, bytes, to: &text)
                    text.withUnsafeBytes { body(index, $0) }
                }
                index += 1
            }
        }
        return end - start
    }

    /// The deepest indentation, sliced for each line.
    private static let spaces = [UInt8](repeating: 0x20, count: LineLimits.maxIndentLevels * 2)

    /// Appends the line's display bytes before decoding: indentation, tokens, and ": " after keys (the
    /// text `PrettyJSONStream` prints, too).
    static func appendBytes(_ layout: PrettyCursor.Line, _ bytes: UnsafeRawBufferPointer, to text: inout [UInt8]) {
        if let raw = layout.raw { text.append(contentsOf: bytes[raw]); return }
        text.append(contentsOf: spaces[0..<min(layout.depth, LineLimits.maxIndentLevels) * 2])
        for token in layout.tokens {
            if token.kind == .colon { text.append(0x3A); text.append(0x20) } else { text.append(contentsOf: bytes[token.range]) }
        }
    }

    // MARK: Positions

    /// The byte where line `index` starts in the raw body.
    public func byteOffset(ofLine index: Int) -> Int? { layout(index)?.start }

    /// The pretty line showing byte `offset` of the raw body.
    public func line(containingByte offset: Int) -> Int {
        lock.withLock {
            while !finished, (frontier.rawFrom ?? frontier.tokenizer.offset) <= offset {
                extend(to: frontierLine + Self.checkpointStride * 16)
            }
        }
        // Binary search the checkpoints by offset, then walk lines inside the block.
        let (block, cursor) = lock.withLock { () -> (Int, PrettyCursor) in
            var low = 0, high = checkpoints.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if Self.position(of: checkpoints[mid]) <= offset { low = mid } else { high = mid - 1 }
            }
            return (low, checkpoints[low])
        }
        var walker = cursor
        var line = block * Self.checkpointStride
        var result = line
        data.withUnsafeBytes { bytes in
            var scratch = PrettyCursor.Line()
            while walker.next(bytes, into: &scratch, collect: false) {
                if scratch.start > offset { break }
                result = line
                line += 1
            }
        }
        return result
    }

    private static func position(of cursor: PrettyCursor) -> Int { cursor.rawFrom ?? cursor.tokenizer.offset }

    /// The line range of the object or array opened on line `index` (through its closing line), for folding.
    public func foldRange(at index: Int) -> ClosedRange<Int>? {
        guard let layout = layout(index), let last = layout.tokens.last(where: { $0.kind != .comma }),
              last.kind.isOpening else { return nil }
        let block = index / Self.checkpointStride
        var walker = lock.withLock { checkpoints[block] }
        var line = block * Self.checkpointStride
        var scratch = PrettyCursor.Line()
        return data.withUnsafeBytes { bytes -> ClosedRange<Int>? in
            while line <= index, walker.next(bytes, into: &scratch, collect: false) { line += 1 }
            let openDepth = layout.depth
            while walker.next(bytes, into: &scratch, collect: false) {
                if scratch.raw != nil { return nil }
                if walker.depth == openDepth && scratch.depth == openDepth { return index...line }
                line += 1
            }
            return nil
        }
    }
}

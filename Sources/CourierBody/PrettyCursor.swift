/// The state between two pretty-printed lines: the tokenizer, the indentation of the next line, and,
/// once the input proved invalid, the offset from which the rest is shown as raw text. A small value,
/// so the document keeps one every few lines as a checkpoint to restart from; a stream marks it before
/// each line, to go back when the line is cut by the end of the bytes received so far.
struct PrettyCursor: Sendable {
    var tokenizer = JSONTokenizer()
    var depth = 0
    /// Set after an `.invalid` token: the rest of the body is shown as text lines from here.
    var rawFrom: Int?
    /// Set by a step over bytes that are not final when the line needs bytes that have not arrived.
    private var starved = false

    /// Bytes of invalid input shown per line when it has no newline for a long way.
    static let rawLineBytes = 4_096

    /// One pretty line as token ranges; `raw` is set instead for a line of invalid input.
    struct Line: Sendable {
        var depth = 0
        var tokens: [JSONToken] = []
        var raw: Range<Int>?
        /// The byte where the line's content starts in the source.
        var start = 0
    }

    /// What one step produced.
    enum Step {
        /// A whole line.
        case line
        /// Nothing: the body has ended.
        case end
        /// Nothing yet: the line goes on past the bytes so far (only when they are not final). The
        /// caller restores the mark it took before the step and steps again once more bytes arrived.
        case needsMore
    }

    /// Produces the next line; with `collect` false only the state advances (for indexing). Returns
    /// false at the end of the body.
    mutating func next(_ bytes: UnsafeRawBufferPointer, into line: inout Line, collect: Bool) -> Bool {
        step(bytes, into: &line, collect: collect, isFinal: true) == .line
    }

    /// Produces the next line of `bytes`; when they are not `isFinal`, a line they cut short yields
    /// `.needsMore` instead of a line laid out differently from the whole body's.
    mutating func step(_ bytes: UnsafeRawBufferPointer, into line: inout Line, collect: Bool, isFinal: Bool) -> Step {
        line.tokens.removeAll(keepingCapacity: true)
        line.raw = nil
        starved = false
        if let from = rawFrom { return rawLine(bytes, from: from, into: &line, isFinal: isFinal) }
        guard let first = pull(bytes, isFinal) else { return starved ? .needsMore : .end }
        line.depth = depth
        line.start = first.range.lowerBound
        switch first.kind {
        case .invalid:
            rawFrom = first.range.lowerBound
            return rawLine(bytes, from: first.range.lowerBound, into: &line, isFinal: isFinal)
        case .endObject, .endArray:
            depth -= 1
            line.depth = depth
            if collect { line.tokens.append(first) }
            trailingComma(bytes, &line, collect, isFinal)
        case .key:
            if collect { line.tokens.append(first) }
            if let colon = take(bytes, &line, collect, isFinal), colon.kind == .colon,
               let value = take(bytes, &line, collect, isFinal) {
                valueRest(value, bytes, &line, collect, isFinal)
            }
        case .comma, .colon:
            // The tokenizer never starts a line with these (commas end lines); keep them visible if it does.
            if collect { line.tokens.append(first) }
        case .beginObject, .beginArray, .string, .number, .literal:
            if collect { line.tokens.append(first) }
            valueRest(first, bytes, &line, collect, isFinal)
        }
        return starved ? .needsMore : .line
    }

    /// The next token; nil at the end, or (noted in `starved`) when the bytes so far hold no whole token.
    private mutating func pull(_ bytes: UnsafeRawBufferPointer, _ isFinal: Bool) -> JSONToken? {
        let token = tokenizer.next(in: bytes, isFinal: isFinal)
        if token == nil, !isFinal, !tokenizer.isFinished { starved = true }
        return token
    }

    /// The next non-whitespace byte; nil at the end, or (noted in `starved`) when it has not arrived.
    private mutating func peek(_ bytes: UnsafeRawBufferPointer, _ isFinal: Bool) -> UInt8? {
        let byte = tokenizer.peekByte(in: bytes)
        if byte == nil, !isFinal, !tokenizer.isFinished { starved = true }
        return byte
    }

    /// Takes one token into the line; an invalid one switches to raw mode on the next line.
    private mutating func take(_ bytes: UnsafeRawBufferPointer, _ line: inout Line, _ collect: Bool,
                               _ isFinal: Bool) -> JSONToken? {
        guard let token = pull(bytes, isFinal) else { return nil }
        if token.kind == .invalid {
            rawFrom = token.range.lowerBound
            return nil
        }
        if collect { line.tokens.append(token) }
        return token
    }

    private mutating func valueRest(_ value: JSONToken, _ bytes: UnsafeRawBufferPointer, _ line: inout Line,
                                    _ collect: Bool, _ isFinal: Bool) {
        if value.kind.isOpening {
            let closing = value.kind == .beginObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let next = peek(bytes, isFinal)
            if starved { return }
            if next == closing {
                _ = take(bytes, &line, collect, isFinal)
            } else {
                depth += 1
                return
            }
        }
        trailingComma(bytes, &line, collect, isFinal)
    }

    private mutating func trailingComma(_ bytes: UnsafeRawBufferPointer, _ line: inout Line, _ collect: Bool,
                                        _ isFinal: Bool) {
        if tokenizer.depth > 0, peek(bytes, isFinal) == UInt8(ascii: ",") { _ = take(bytes, &line, collect, isFinal) }
    }

    private mutating func rawLine(_ bytes: UnsafeRawBufferPointer, from: Int, into line: inout Line,
                                  isFinal: Bool) -> Step {
        guard from < bytes.count else { return isFinal ? .end : .needsMore }
        var end = from
        let limit = min(bytes.count, from + Self.rawLineBytes)
        while end < limit, bytes[end] != 0x0A { end += 1 }
        // Without a newline in the bytes so far, the line may go on in the next ones.
        if !isFinal, end == bytes.count, end < from + Self.rawLineBytes { return .needsMore }
        var next = end
        if end < bytes.count, bytes[end] == 0x0A {
            next = end + 1
        } else if end == limit, end < bytes.count {
            // Cut on a scalar boundary so the split does not invent replacement marks.
            while end > from + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            next = end
        }
        line.depth = 0
        line.start = from
        line.raw = from..<end
        rawFrom = next
        return .line
    }

    /// The cursor's position before a step over bytes that may not be final.
    struct Mark: Sendable {
        fileprivate var tokenizer: JSONTokenizer.Mark
        fileprivate var depth: Int
        fileprivate var rawFrom: Int?
    }

    /// Where the cursor is now; cheaper than a copy, whose stack a step would copy on its first change.
    var mark: Mark { Mark(tokenizer: tokenizer.mark, depth: depth, rawFrom: rawFrom) }

    /// Goes back to `mark`, taken before the last step (which returned `.needsMore`).
    mutating func restore(_ mark: Mark) {
        tokenizer.restore(mark.tokenizer)
        depth = mark.depth
        rawFrom = mark.rawFrom
    }

    /// Shifts every offset down by `count`, after the caller dropped that many consumed bytes.
    mutating func rebase(droppingFirst count: Int) {
        tokenizer.rebase(droppingFirst: count)
        if let from = rawFrom { rawFrom = from - count }
    }
}

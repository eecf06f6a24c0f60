/// The state between two pretty-printed lines: the tokenizer, the indentation of the next line, and,
/// once the input proved invalid, the offset from which the rest is shown as raw text. A small value,
/// so the document keeps one every few lines as a checkpoint to restart from.
struct PrettyCursor: Sendable {
    var tokenizer = JSONTokenizer()
    var depth = 0
    /// Set after an `.invalid` token: the rest of the body is shown as text lines from here.
    var rawFrom: Int?

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

    /// Produces the next line; with `collect` false only the state advances (for indexing). Returns
    /// false at the end of the body.
    mutating func next(_ bytes: UnsafeRawBufferPointer, into line: inout Line, collect: Bool) -> Bool {
        line.tokens.removeAll(keepingCapacity: true)
        line.raw = nil
        if let from = rawFrom { return rawLine(bytes, from: from, into: &line) }
        guard let first = tokenizer.next(in: bytes) else { return false }
        line.depth = depth
        line.start = first.range.lowerBound
        switch first.kind {
        case .invalid:
            rawFrom = first.range.lowerBound
            return rawLine(bytes, from: first.range.lowerBound, into: &line)
        case .endObject, .endArray:
            depth -= 1
            line.depth = depth
            if collect { line.tokens.append(first) }
            trailingComma(bytes, &line, collect)
        case .key:
            if collect { line.tokens.append(first) }
            guard let colon = take(bytes, &line, collect), colon.kind == .colon,
                  let value = take(bytes, &line, collect) else { return true }
            valueRest(value, bytes, &line, collect)
        case .comma, .colon:
            // The tokenizer never starts a line with these (commas end lines); keep them visible if it does.
            if collect { line.tokens.append(first) }
        case .beginObject, .beginArray, .string, .number, .literal:
            if collect { line.tokens.append(first) }
            valueRest(first, bytes, &line, collect)
        }
        return true
    }

    /// Takes one token into the line; an invalid one switches to raw mode on the next line.
    private mutating func take(_ bytes: UnsafeRawBufferPointer, _ line: inout Line, _ collect: Bool) -> JSONToken? {
        guard let token = tokenizer.next(in: bytes) else { return nil }
        if token.kind == .invalid {
            rawFrom = token.range.lowerBound
            return nil
        }
        if collect { line.tokens.append(token) }
        return token
    }

    private mutating func valueRest(_ value: JSONToken, _ bytes: UnsafeRawBufferPointer, _ line: inout Line, _ collect: Bool) {
        if value.kind.isOpening {
            let closing = value.kind == .beginObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if tokenizer.peekByte(in: bytes) == closing {
                _ = take(bytes, &line, collect)
            } else {
                depth += 1
                return
            }
        }
        trailingComma(bytes, &line, collect)
    }

    private mutating func trailingComma(_ bytes: UnsafeRawBufferPointer, _ line: inout Line, _ collect: Bool) {
        if tokenizer.depth > 0, tokenizer.peekByte(in: bytes) == UInt8(ascii: ",") { _ = take(bytes, &line, collect) }
    }

    private mutating func rawLine(_ bytes: UnsafeRawBufferPointer, from: Int, into line: inout Line) -> Bool {
        guard from < bytes.count else { return false }
        var end = from
        let limit = min(bytes.count, from + Self.rawLineBytes)
        while end < limit, bytes[end] != 0x0A { end += 1 }
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
        return true
    }
}

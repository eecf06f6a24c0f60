import Foundation

/// Finds the blocks of a `.http` file (the line ranges between `###` separator lines) in one pass over
/// its bytes, splitting lines as `SourceLines.split` does, without decoding them, and skipping httpyac block
/// comments as `HTTPFileParser.blocks` does. Resumable: each call to
/// `next` returns the following block, so a caller can parse one block before finding the next.
struct BlockScanner {
    /// Where a block starts, and its context: the last non-blank line before its `###` (a `# @name` there
    /// names the request below), or the block's own start when there is none.
    struct Block: Equatable {
        var context: Int
        var contextLine: Int
        var start: Int
        var startLine: Int
    }

    private var lineStart = 0
    private var line = 0
    private var lastNonBlank: (offset: Int, line: Int)?
    private var startedFirst = false
    /// The offset of the `*/` that ends the block comment being read, if one is.
    private var commentEnd: Int?
    /// Where a search for `*/` ran off the end: no later `/*` can be closed either.
    private var unclosedFrom: Int?

    /// The next block of `bytes` (the same bytes on every call), or nil after the last.
    mutating func next(_ bytes: UnsafeBufferPointer<UInt8>) -> Block? {
        guard !bytes.isEmpty else { return nil }
        if !startedFirst {
            startedFirst = true
            return Block(context: 0, contextLine: 0, start: 0, startLine: 0)
        }
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var contentEnd = end
            if end < bytes.count && contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            var first = lineStart
            while first < contentEnd && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
            var found: Block?
            if let commentEnd, lineStart <= commentEnd {
                // Inside a block comment: no separator.
            } else if let close = closingComment(bytes, opener: first, contentEnd: contentEnd, next: end + 1) {
                commentEnd = close
            } else if line > 0 && Self.isSeparator(bytes, from: first, to: contentEnd) {
                let context = lastNonBlank ?? (lineStart, line)
                found = Block(context: context.offset, contextLine: context.line, start: lineStart, startLine: line)
            }
            if first < contentEnd { lastNonBlank = (lineStart, line) }
            lineStart = end + 1
            line += 1
            if let found { return found }
        }
        return nil
    }

    /// Where the `*/` is that closes the block comment a line opens (content from `opener` to `contentEnd`,
    /// the next line at `next`), or nil when the line opens none, as `HTTPFileParser.blockCommentEnd` reads it.
    private mutating func closingComment(_ bytes: UnsafeBufferPointer<UInt8>, opener: Int, contentEnd: Int,
                                         next: Int) -> Int? {
        guard contentEnd - opener >= 2, bytes[opener] == 0x2F, bytes[opener + 1] == 0x2A,
              Self.closer(in: bytes, from: opener + 2, to: contentEnd) == nil else { return nil }
        if let unclosedFrom, unclosedFrom <= next { return nil }
        guard let close = Self.closer(in: bytes, from: next, to: bytes.count) else {
            unclosedFrom = next
            return nil
        }
        return close
    }

    /// The offset of the first `*/` in `bytes[from..<to]`.
    private static func closer(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> Int? {
        var index = from
        while index + 1 < end {
            if bytes[index] == 0x2A && bytes[index + 1] == 0x2F { return index }
            index += 1
        }
        return nil
    }

    /// Whether a line's content (blanks skipped) starts with `###`, as `HTTPFileParser.isSeparator` reads
    /// it: checked on the text too, since a combining mark after `#` makes a different character.
    private static func isSeparator(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int, to end: Int) -> Bool {
        guard end - first >= 3, bytes[first] == 0x23, bytes[first + 1] == 0x23, bytes[first + 2] == 0x23 else {
            return false
        }
        let content = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
        return content.hasPrefix("###")
    }

    /// How many of the first `blocks` blocks `data` has, and the offset where the block after them starts
    /// (nil when the data has no more).
    static func prefix(of data: Data, blocks: Int) -> (count: Int, end: Int?) {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = BlockScanner()
            var count = 0
            while let block = scanner.next(bytes) {
                if count == blocks { return (count, block.start) }
                count += 1
            }
            return (count, nil)
        }
    }
}

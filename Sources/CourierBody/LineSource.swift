import Foundation

/// Anything the viewer can show line by line: a raw body, its pretty JSON, a hex dump or a filter result.
/// Lines are produced on demand, so a source of millions of lines costs only what is on screen.
public protocol LineSource: AnyObject, Sendable {
    /// Lines known so far (all of them once `isComplete`).
    var lineCount: Int { get }
    /// Whether `lineCount` is final: the body has fully arrived and been indexed.
    var isComplete: Bool { get }
    /// The display text of line `index` (0-based), invalid UTF-8 shown as U+FFFD, long lines capped.
    func line(_ index: Int) -> String
    /// The line with colour roles for its parts; plain sources return one `.text` span.
    func coloredLine(_ index: Int) -> ColoredLine
    /// Calls `body` with the display bytes (UTF-8 before decoding) of up to `limit` lines from `start`, for
    /// fast scanning such as search; returns how many lines it visited (0 when none are available yet).
    func forEachLineBytes(from start: Int, limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Void) -> Int
    /// Indexes more of the source; returns true when everything available so far is indexed (for a body
    /// still streaming in, more may come later: see `isComplete`). Called from a background task.
    func indexMore() -> Bool
}

extension LineSource {
    /// A plain line: one span covering the text.
    public func coloredLine(_ index: Int) -> ColoredLine { ColoredLine(text: line(index)) }

    public func forEachLineBytes(from start: Int, limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Void) -> Int {
        if start + limit > lineCount { _ = indexMore() }
        let end = min(lineCount, start + limit)
        guard start < end else { return 0 }
        for index in start..<end {
            var text = line(index)
            text.withUTF8 { body(index, UnsafeRawBufferPointer($0)) }
        }
        return end - start
    }

    /// Indexes everything available now.
    public func indexAll() { while !indexMore() {} }
}

/// What a part of a line is, so the view can colour it from the theme.
public enum TextRole: UInt8, Sendable, Hashable {
    case text, key, string, number, literal, punctuation, invalid, muted
}

/// One line of display text with colour roles over character ranges.
public struct ColoredLine: Sendable, Hashable {
    public var text: String
    /// Character-offset ranges (in `text`'s Characters) and their role, in order, not overlapping.
    public var spans: [Span]

    /// A role over a range of characters.
    public struct Span: Sendable, Hashable {
        public var range: Range<Int>
        public var role: TextRole
        public init(_ range: Range<Int>, _ role: TextRole) { self.range = range; self.role = role }
    }

    public init(text: String, spans: [Span]? = nil) {
        self.text = text
        self.spans = spans ?? [Span(0..<text.count, .text)]
    }

    /// The role of the character at `offset` (`.text` outside every span).
    public func role(at offset: Int) -> TextRole {
        spans.first { $0.range.contains(offset) }?.role ?? .text
    }
}

/// Limits on what one display line materialises, so a 50 MB one-line body never becomes one String.
public enum LineLimits {
    /// Bytes of one line turned into text; the rest is summarised by a note.
    public static let maxLineBytes = 16_384
    /// Indentation levels drawn for pretty JSON; deeper levels stay at this indent.
    public static let maxIndentLevels = 40

    /// The note appended to a line cut at `maxLineBytes`.
    public static func truncationNote(remaining: Int) -> String { " … [+\(remaining) bytes]" }

    /// Decodes bytes as UTF-8, each invalid sequence shown as U+FFFD, cutting at `maxLineBytes`.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.count <= maxLineBytes { return String(decoding: bytes, as: UTF8.self) }
        var cut = maxLineBytes
        // Back up to a scalar boundary so the cut does not invent a replacement mark.
        while cut > maxLineBytes - 4, cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        let head = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<cut]), as: UTF8.self)
        return head + truncationNote(remaining: bytes.count - cut)
    }
}

import Foundation

/// httpyac's block comments: a line starting `/*` opens one that runs to the line holding `*/`, and every
/// line inside is comment, `###` lines included (httpyac reads the comment before it looks for separators),
/// so a Markdown heading written in a comment neither ends the request above nor starts one.
extension HTTPFileParser {
    /// Ranges between `###` separator lines (outside block comments); each range after the first starts at
    /// its separator.
    func blocks() -> [Range<Int>] {
        var starts = [0]
        var index = 0
        var unclosed: Int?
        while index < lines.count {
            if let end = blockCommentEnd(at: index, limit: lines.count, unclosedFrom: &unclosed) {
                index = end
                continue
            }
            if index > 0 && Self.isSeparator(lines[index]) { starts.append(index) }
            index += 1
        }
        return starts.indices.map { starts[$0]..<(($0 + 1 < starts.count) ? starts[$0 + 1] : lines.count) }
            .filter { !$0.isEmpty }
    }

    /// The line after the block comment that opens at `index` (before `limit`), or nil when `index` opens
    /// none: not `/*`, closed on its own line, or never closed. `unclosedFrom` remembers where a search for
    /// `*/` ran off the end, so a file of many unclosed `/*` lines is still read in one pass.
    func blockCommentEnd(at index: Int, limit: Int, unclosedFrom: inout Int?) -> Int? {
        // Bytes, not characters, as `BlockScanner` reads them: a combining mark after `*` changes no line's role.
        guard lines[index].firstNonBlankByte == UInt8(ascii: "/") else { return nil }
        let opener = Array(lines[index].trimmed.utf8)
        guard opener.count >= 2, opener[0] == 0x2F, opener[1] == 0x2A, !Self.holdsCommentClose(opener.dropFirst(2))
        else { return nil }
        if let unclosedFrom, unclosedFrom <= index + 1 { return nil }
        var end = index + 1
        while end < limit {
            if Self.holdsCommentClose(lines[end].content.utf8) { return end + 1 }
            end += 1
        }
        unclosedFrom = index + 1
        return nil
    }

    /// Whether the bytes hold `*/`.
    static func holdsCommentClose<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == 0x2A && byte == 0x2F { return true }
            previous = byte
        }
        return false
    }
}

import Foundation

/// One line of a source file: its content without the terminator, and the terminator as written
/// ("\n", "\r\n" or "" for a last line without one), so that joining lines gives back the exact bytes.
public struct SourceLine: Sendable, Hashable {
    public var content: String
    public var terminator: String

    public init(content: String, terminator: String) {
        self.content = content
        self.terminator = terminator
    }

    /// The line as it appears in the file.
    public var text: String { content + terminator }

    /// Whether the line holds only spaces and tabs.
    public var isBlank: Bool { content.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    /// The content without leading and trailing spaces and tabs. Works on UTF-8 bytes: the parser calls
    /// it for every line, and Foundation's Unicode-aware trimming is many times slower.
    public var trimmed: String { content.trimmingBlanks }

    /// The first byte that is not a space or tab (nil for a blank line): what a line can be is often settled by
    /// it, before a trimmed copy of the line is made.
    var firstNonBlankByte: UInt8? { content.utf8.first { $0 != 0x20 && $0 != 0x09 } }
}

/// Splitting text into lines and back without losing a byte.
public enum SourceLines {
    /// Splits on "\n", keeping "\r\n" pairs as terminators. Works on bytes because Swift treats
    /// "\r\n" as one Character, which would hide the line ending.
    public static func split(_ text: String) -> [SourceLine] {
        var lines: [SourceLine] = []
        let bytes = Array(text.utf8)
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                var end = index
                var terminator = "\n"
                if end > start && bytes[end - 1] == 0x0D {
                    end -= 1
                    terminator = "\r\n"
                }
                lines.append(SourceLine(content: decode(bytes[start..<end]), terminator: terminator))
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count {
            lines.append(SourceLine(content: decode(bytes[start..<bytes.count]), terminator: ""))
        }
        return lines
    }

    /// Joins lines back into the text they came from.
    public static func join<S: Collection>(_ lines: S) -> String where S.Element == SourceLine {
        var text = ""
        // Sized once: grown line by line, a block's text was copied as often as it has lines.
        text.reserveCapacity(lines.reduce(0) { $0 + $1.content.utf8.count + $1.terminator.utf8.count })
        for line in lines {
            text += line.content
            text += line.terminator
        }
        return text
    }

    /// The line ending used by most lines, for lines Courier adds ("\n" when there are none).
    public static func dominantEnding(_ lines: [SourceLine]) -> String {
        let crlf = lines.filter { $0.terminator == "\r\n" }.count
        let lf = lines.filter { $0.terminator == "\n" }.count
        return crlf > lf ? "\r\n" : "\n"
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        // Invalid UTF-8 cannot be kept byte for byte in a String; the loader rejects such files first.
        String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs, the only blanks the `.http` syntax knows. Byte-based,
    /// because Foundation's `trimmingCharacters(in:)` dominates parsing time on Linux.
    public var trimmingBlanks: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// Without leading and trailing spaces and tabs; see `Substring.trimmingBlanks`.
    public var trimmingBlanks: String { self[...].trimmingBlanks }
}

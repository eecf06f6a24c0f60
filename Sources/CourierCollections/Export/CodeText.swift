import CourierSecurity
import Foundation

/// Text in exported code: pieces written out as they are, and secrets the code reads at run time. A
/// generator renders each piece in its language's syntax, so no secret value can reach the output
/// by way of an ordinary string literal.
public struct CodeText: Sendable, Hashable {
    /// One run of the text.
    public enum Piece: Sendable, Hashable {
        case text(String)
        /// Bytes that are not UTF-8 text (part of a binary body).
        case bytes(Data)
        /// The secret at this index of `CodeRequest.secrets`; `percentEncoded` when it stands in a URL,
        /// where the code encodes it as Courier does a substituted value (all but letters, digits, `-._~`).
        case secret(Int, percentEncoded: Bool)
    }

    public var pieces: [Piece]

    /// Text from pieces.
    public init(_ pieces: [Piece]) { self.pieces = pieces }

    /// Text without secrets.
    public init(_ text: String) { pieces = text.isEmpty ? [] : [.text(text)] }

    public var isEmpty: Bool { pieces.isEmpty }

    /// Whether a piece is raw bytes: the text is then written as bytes, not as a string.
    public var isBinary: Bool { pieces.contains { if case .bytes = $0 { true } else { false } } }

    /// Whether the written text is all ASCII (secrets are not looked at).
    public var isASCII: Bool {
        pieces.allSatisfy { if case .text(let text) = $0 { text.allSatisfy(\.isASCII) } else { true } }
    }

    /// Whether any piece is a secret.
    public var hasSecrets: Bool { pieces.contains { if case .secret = $0 { true } else { false } } }

    /// The text when it holds no secret and no bytes.
    public var plain: String? {
        var result = ""
        for piece in pieces {
            guard case .text(let text) = piece else { return nil }
            result += text
        }
        return result
    }

    /// The indices of the secrets the text uses, in order of first use.
    public var secretIndices: [Int] {
        var seen: [Int] = []
        for case .secret(let index, _) in pieces where !seen.contains(index) { seen.append(index) }
        return seen
    }

    /// The text with adjacent text pieces joined.
    static func joined(_ pieces: [Piece]) -> CodeText {
        var result: [Piece] = []
        for piece in pieces {
            switch (result.last, piece) {
            case (.text(let a)?, .text(let b)): result[result.count - 1] = .text(a + b)
            case (.bytes(let a)?, .bytes(let b)): result[result.count - 1] = .bytes(a + b)
            case (_, .text(let text)) where text.isEmpty: break
            case (_, .bytes(let data)) where data.isEmpty: break
            default: result.append(piece)
            }
        }
        return CodeText(result)
    }

    /// The pieces as lines for code that writes one literal per line: text and bytes split after each
    /// newline, bytes also every `bytesPerLine`; secrets stay on the line they are in.
    public func lines(bytesPerLine: Int = 48) -> [[Piece]] {
        var lines: [[Piece]] = [[]]
        for piece in pieces {
            switch piece {
            case .text(let text):
                var line = ""
                for character in text {
                    line.append(character)
                    if character == "\n" || character == "\r\n" {
                        lines[lines.count - 1].append(.text(line))
                        lines.append([])
                        line = ""
                    }
                }
                if !line.isEmpty { lines[lines.count - 1].append(.text(line)) }
            case .bytes(let data):
                // A line per line of the bytes (they are often text with a binary part), at most bytesPerLine.
                var start = data.startIndex
                while start < data.endIndex {
                    let limit = data.index(start, offsetBy: bytesPerLine, limitedBy: data.endIndex) ?? data.endIndex
                    let end = data[start..<limit].firstIndex(of: 0x0A).map { $0 + 1 } ?? limit
                    lines[lines.count - 1].append(.bytes(Data(data[start..<end])))
                    if end < data.endIndex || data[end - 1] == 0x0A { lines.append([]) }
                    start = end
                }
            case .secret:
                lines[lines.count - 1].append(piece)
            }
        }
        if lines.count > 1, lines[lines.count - 1].isEmpty { lines.removeLast() }
        return lines
    }

    // MARK: Finding secrets in text

    /// A secret value to look for, and the spellings it may have in the text.
    struct Needle {
        var index: Int
        var forms: [String]
        var percentEncoded: Bool
    }

    /// `text` split wherever one of the needles' forms occurs (the longest form wins at a position).
    static func splitting(_ text: String, needles: [Needle]) -> CodeText {
        let forms = needles.flatMap { needle in needle.forms.map { (form: $0, needle: needle) } }
            .filter { !$0.form.isEmpty }
            .sorted { $0.form.count > $1.form.count }
        guard !forms.isEmpty else { return CodeText(text) }
        var pieces: [Piece] = []
        var rest = Substring(text)
        while true {
            // The earliest occurrence of any form; at one position, the longest (sorted first).
            var found: (range: Range<Substring.Index>, needle: Needle)?
            for (form, needle) in forms {
                guard let range = rest.range(of: form) else { continue }
                if let earlier = found, earlier.range.lowerBound <= range.lowerBound { continue }
                found = (range, needle)
            }
            guard let (range, needle) = found else { break }
            pieces.append(.text(String(rest[..<range.lowerBound])))
            pieces.append(.secret(needle.index, percentEncoded: needle.percentEncoded))
            rest = rest[range.upperBound...]
        }
        pieces.append(.text(String(rest)))
        return joined(pieces)
    }

    /// Bytes split wherever one of the needles' raw values occurs.
    static func splitting(_ data: Data, needles: [Needle]) -> CodeText {
        let values = needles.compactMap { needle in needle.forms.first.map { (bytes: Array($0.utf8), needle: needle) } }
            .filter { !$0.bytes.isEmpty }
            .sorted { $0.bytes.count > $1.bytes.count }
        let bytes = Array(data)
        var pieces: [Piece] = []
        var start = 0
        var index = 0
        outer: while index < bytes.count {
            for (value, needle) in values where bytes.count - index >= value.count
                && bytes[index..<index + value.count].elementsEqual(value) {
                pieces.append(.bytes(Data(bytes[start..<index])))
                pieces.append(.secret(needle.index, percentEncoded: false))
                index += value.count
                start = index
                continue outer
            }
            index += 1
        }
        pieces.append(.bytes(Data(bytes[start..<bytes.count])))
        return joined(pieces)
    }
}

/// Characters every generator escapes even where its strings could hold them: controls, and the
/// invisible ones (bidirectional overrides, zero-width spaces, line separators) that would make the code
/// read differently from what it does.
enum CodeEscaping {
    /// Whether `scalar` must be written as an escape.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
        default: scalar.value == 0xFEFF
        }
    }

    /// Bytes inside a literal's quotes: printable ASCII as is (the backslash and `quote` escaped with a
    /// backslash), a byte `named` names as that escape, every other byte as `\xHH`. Curl's `$'…'`, Go's and
    /// Python's byte strings all read this.
    static func hexEscaped(_ data: Data, quote: Character, named: [UInt8: String] = [:]) -> String {
        var result = ""
        let quoteByte = quote.asciiValue
        for byte in data {
            if byte == UInt8(ascii: "\\") || byte == quoteByte {
                result += "\\" + String(Unicode.Scalar(byte))
            } else if let name = named[byte] {
                result += name
            } else if (0x20..<0x7F).contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += String(format: "\\x%02x", byte)
            }
        }
        return result
    }
}

/// Lines of generated code.
enum CodeLines {
    /// Every line indented by `prefix`, the lines inside multi-line elements included; empty lines stay empty.
    static func indented(_ lines: [String], by prefix: String) -> [String] {
        lines.flatMap { $0.components(separatedBy: "\n") }.map { $0.isEmpty ? "" : prefix + $0 }
    }
}

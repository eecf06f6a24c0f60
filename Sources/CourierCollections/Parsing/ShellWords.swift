import Foundation

/// Splits a POSIX shell command line into words the way bash would before running it: single and double
/// quotes, `$'…'` ANSI-C strings, backslash escapes and backslash-newline continuations. Variables and
/// globs are not expanded: a copied command is data, never run.
public enum ShellWords {
    /// Why a command line could not be split.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The words of `line`, or why it cannot be split (an unclosed quote).
    public static func split(_ line: String) -> Result<[String], Failure> {
        var words: [String] = []
        var current = ""
        var inWord = false
        let scalars = Array(line.unicodeScalars)
        var index = 0
        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        // A pasted command may have Windows line endings: outside quotes "\r\n" counts as "\n"; inside
        // quotes every byte is kept.
        func lineEnd(at offset: Int) -> Int? {
            if peek(offset) == "\n" { return 1 }
            if peek(offset) == "\r" && peek(offset + 1) == "\n" { return 2 }
            return nil
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
                index += 1
            case "\r" where peek(1) == "\n":
                if inWord { words.append(current); current = ""; inWord = false }
                index += 2
            case "\\":
                if let length = lineEnd(at: 1) { index += 1 + length; continue }
                guard let next = peek(1) else { index += 1; continue }
                current.unicodeScalars.append(next)
                inWord = true
                index += 2
            case "'":
                index += 1
                guard let close = scalars[index...].firstIndex(of: "'") else {
                    return .failure(Failure(description: "a single quote is not closed"))
                }
                current.unicodeScalars.append(contentsOf: scalars[index..<close])
                inWord = true
                index = close + 1
            case "\"":
                index += 1
                var closed = false
                while index < scalars.count {
                    let inner = scalars[index]
                    if inner == "\"" { closed = true; index += 1; break }
                    if inner == "\\", let next = peek(1) {
                        if let length = lineEnd(at: 1) { index += 1 + length; continue }
                        if ["\"", "\\", "$", "`"].contains(next) { current.unicodeScalars.append(next); index += 2; continue }
                    }
                    current.unicodeScalars.append(inner)
                    index += 1
                }
                guard closed else { return .failure(Failure(description: "a double quote is not closed")) }
                inWord = true
            case "$" where peek(1) == "'":
                index += 2
                guard let text = ansiC(scalars, &index) else {
                    return .failure(Failure(description: "a $'…' string is not closed"))
                }
                current += text
                inWord = true
            default:
                current.unicodeScalars.append(scalar)
                inWord = true
                index += 1
            }
        }
        if inWord { words.append(current) }
        return .success(words)
    }

    /// Reads a `$'…'` body from `index` (just after the opening quote) to its closing quote.
    private static func ansiC(_ scalars: [Unicode.Scalar], _ index: inout Int) -> String? {
        var text = ""
        var bytes: [UInt8] = []
        func flushBytes() {
            if !bytes.isEmpty { text += String(decoding: bytes, as: UTF8.self); bytes = [] }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" { flushBytes(); index += 1; return text }
            guard scalar == "\\", index + 1 < scalars.count else {
                flushBytes()
                text.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            let escape = scalars[index + 1]
            index += 2
            if escape == "x" || escape == "u" || escape == "U" {
                let limit = escape == "x" ? 2 : (escape == "u" ? 4 : 8)
                var digits = ""
                while digits.count < limit, index < scalars.count, scalars[index].properties.isASCIIHexDigit {
                    digits.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard let value = UInt32(digits, radix: 16) else { flushBytes(); text += "\\" + String(escape); continue }
                if escape == "x" {
                    // \xHH are bytes: consecutive ones may form one UTF-8 character.
                    bytes.append(UInt8(value))
                } else {
                    flushBytes()
                    if let decoded = Unicode.Scalar(value) { text.unicodeScalars.append(decoded) }
                }
                continue
            }
            flushBytes()
            switch escape {
            case "n": text += "\n"
            case "t": text += "\t"
            case "r": text += "\r"
            case "a": text += "\u{07}"
            case "b": text += "\u{08}"
            case "e", "E": text += "\u{1B}"
            case "f": text += "\u{0C}"
            case "v": text += "\u{0B}"
            case "\\": text += "\\"
            case "'": text += "'"
            case "\"": text += "\""
            case "?": text += "?"
            default: text += "\\" + String(escape)
            }
        }
        return nil
    }

    /// Quotes a word so that a POSIX shell reads it back unchanged: single quotes, with `'\''` for a quote.
    public static func quote(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || "-_./:=@%+,".unicodeScalars.contains(scalar))
        }
        if safe && !word.isEmpty { return word }
        // Scalar by scalar: a quote followed by a combining mark is one Character, which a Character-level
        // replace would leave unescaped.
        var quoted = "'"
        for scalar in word.unicodeScalars {
            if scalar == "'" { quoted.unicodeScalars.append(contentsOf: "'\\''".unicodeScalars) } else { quoted.unicodeScalars.append(scalar) }
        }
        quoted.unicodeScalars.append("'")
        return quoted
    }
}

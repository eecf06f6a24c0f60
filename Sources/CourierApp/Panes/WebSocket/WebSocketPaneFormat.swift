import CourierTerminal
import Foundation

/// Pure text formatting for the pane: sizes, times, hex, and JSON pretty-printed into styled lines.
enum WebSocketPaneFormat {
    /// `512 B`, `4.0 KB`, `1.2 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / (1024 * 1024))
    }

    /// `HH:mm:ss.SSS` in `timeZone`.
    static func time(_ date: Date, timeZone: TimeZone) -> String {
        // Whole milliseconds first, so 0.8 s does not print as .799 after floating-point rounding.
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let milliseconds = Int((total % 1000 + 1000) % 1000)
        let seconds = Int((total - Int64(milliseconds)) / 1000) + timeZone.secondsFromGMT(for: date)
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d.%03d", day / 3600, day / 60 % 60, day % 60, milliseconds)
    }

    /// Lower-case hex pairs separated by spaces.
    static func hex(_ bytes: some Swift.Collection<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    /// Hex dump lines of 16 bytes with an ASCII column.
    static func hexDump(_ bytes: [UInt8], lines limit: Int) -> [String] {
        stride(from: 0, to: bytes.count, by: 16).prefix(limit).map { offset in
            let row = bytes[offset..<min(bytes.count, offset + 16)]
            let ascii = String(row.map { (0x20..<0x7F).contains($0) ? Character(UnicodeScalar($0)) : "." })
            return String(format: "%04x  ", offset) + hex(row).padding(toLength: 48, withPad: " ", startingAt: 0) + " " + ascii
        }
    }

    /// Whether `text` looks like a JSON object or array. `validate` parses it too; the one-line view
    /// skips that (colouring a near-JSON line is harmless) because it runs for every visible row per frame.
    static func looksLikeJSON(_ text: String, validate: Bool = true) -> Bool {
        guard let first = text.utf8.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
        guard validate else { return true }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
    }

    /// JSON laid out two spaces per level, keys in their original order, coloured by token, cut
    /// after `limit` lines. The input is assumed valid (see `looksLikeJSON`).
    /// With `oneLine`, the same colouring on a single line (`, ` and `: ` spacing, no indentation).
    static func prettyJSON(_ text: String, theme: JSONStyles, limit: Int, oneLine: Bool = false) -> [StyledLine] {
        var lines: [StyledLine] = []
        var line = StyledLine()
        var depth = 0
        var expectKey = [false]
        func newline() {
            if oneLine {
                if line.spans.last?.text == "," { line.append(" ") }
                return
            }
            lines.append(line)
            line = StyledLine()
            line.append(String(repeating: "  ", count: depth))
        }
        // Only the start can be seen (one row, or a few lines), so a 4 MB message costs no more than a small one.
        let characters = Array(text.prefix(oneLine ? 512 : 64 * 1024))
        var index = 0
        while index < characters.count && lines.count < limit {
            let c = characters[index]
            switch c {
            case "{", "[":
                line.append(String(c), style: theme.punctuation)
                // An empty container stays on one line.
                var next = index + 1
                while next < characters.count && characters[next].isWhitespace { next += 1 }
                if next < characters.count && (characters[next] == "}" || characters[next] == "]") {
                    line.append(String(characters[next]), style: theme.punctuation)
                    index = next + 1
                    continue
                }
                depth += 1
                expectKey.append(c == "{")
                newline()
            case "}", "]":
                depth = max(0, depth - 1)
                if expectKey.count > 1 { expectKey.removeLast() }
                newline()
                line.append(String(c), style: theme.punctuation)
            case ",":
                line.append(",", style: theme.punctuation)
                newline()
            case ":":
                line.append(": ", style: theme.punctuation)
            case "\"":
                var end = index + 1
                while end < characters.count && characters[end] != "\"" {
                    end += characters[end] == "\\" ? 2 : 1
                }
                let literal = String(characters[index...min(end, characters.count - 1)])
                var isKey = false
                if expectKey.last == true {
                    var next = end + 1
                    while next < characters.count && characters[next].isWhitespace { next += 1 }
                    isKey = next < characters.count && characters[next] == ":"
                }
                line.append(literal, style: isKey ? theme.key : theme.string)
                index = end + 1
                continue
            case _ where c.isWhitespace:
                break
            default:
                var end = index
                while end < characters.count && !",]}: \n\t\r".contains(characters[end]) { end += 1 }
                let token = String(characters[index..<end])
                let isNumber = token.first.map { $0 == "-" || $0.isNumber } ?? false
                line.append(token, style: isNumber ? theme.number : theme.literal)
                index = end
                continue
            }
            index += 1
        }
        if lines.count < limit && !line.plainText.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(line) }
        return lines
    }

    /// The theme roles JSON is drawn with.
    struct JSONStyles {
        var key: Style
        var string: Style
        var number: Style
        var literal: Style
        var punctuation: Style
    }
}

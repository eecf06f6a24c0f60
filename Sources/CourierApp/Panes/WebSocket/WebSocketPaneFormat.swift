import CourierBody
import CourierTerminal
import Foundation

/// Pure text formatting for the pane: sizes, times, and JSON laid out into styled lines.
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

    /// Whether `text` looks like a JSON object or array. `validate` parses it too; the one-line view
    /// skips that (colouring a near-JSON line is harmless) because it runs for every visible row per frame.
    static func looksLikeJSON(_ text: String, validate: Bool = true) -> Bool {
        guard MediaKind.startsLikeJSON(text.utf8) else { return false }
        guard validate else { return true }
        return Data(text.utf8).withUnsafeBytes(JSONTokenizer.holdsOneValue)
    }

    /// JSON laid out by `PrettyJSONStream` (two spaces per level, keys in their order, as in the Response
    /// pane), coloured by the theme, cut after `limit` lines. With `oneLine`, the same tokens on a single
    /// line (`, ` and `: ` spacing, no indentation). Only the start of a long message is laid out, as
    /// only the start can be seen; what that cut leaves of its last line is shown as plain text.
    static func prettyJSON(_ text: String, theme: Theme, limit: Int, oneLine: Bool = false) -> [StyledLine] {
        let start = Data(text.utf8.prefix(oneLine ? 512 : 64 * 1024))
        let lines = PrettyJSONStream.coloredLines(start, limit: oneLine ? .max : limit)
        func spans(_ line: ColoredLine) -> [Span] {
            let characters = Array(line.text)
            return line.spans.map { span in
                // The cut shows as invalid input; it is text here, not an error.
                let role = span.role == .invalid ? TextRole.text : span.role
                return Span(String(characters[span.range.clamped(to: 0..<characters.count)]), style: theme.style(for: role))
            }
        }
        guard oneLine else {
            return lines.map { line in
                let indent = line.text.prefix { $0 == " " }.count
                return StyledLine([Span(String(repeating: " ", count: indent))] + spans(line))
            }
        }
        var flat = StyledLine()
        var afterRaw = false
        for line in lines {
            // A line break in text that is not JSON reads as a space on one line, as after a comma.
            if flat.spans.last?.text == "," || afterRaw { flat.append(" ") }
            afterRaw = line.spans.first?.role == .invalid
            flat.spans += spans(line)
        }
        return flat.spans.isEmpty ? [] : [flat]
    }
}

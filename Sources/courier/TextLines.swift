import CourierSecurity

/// Lines of text written straight into one byte buffer, as `[String].joined(separator: "\n")` would give
/// them: a run prints thousands of responses, and an array of Strings per response, joined and copied again
/// on its way out, cost more than the lines themselves.
struct TextLines {
    private(set) var bytes: [UInt8] = []
    /// Whether a line was started: every line after the first is preceded by a newline.
    private var started = false

    init() { bytes.reserveCapacity(512) }

    /// Whether no line was started.
    var isEmpty: Bool { !started }

    /// Starts a line, empty until something is appended.
    mutating func newLine() {
        if started { bytes.append(0x0A) }
        started = true
    }

    /// Starts a line holding `text`.
    mutating func line(_ text: String) {
        newLine()
        append(text)
    }

    /// Appends `text` to the current line as it is.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` to the current line with dangerous scalars escaped, as `Sanitizer.escaped` gives it.
    mutating func appendEscaped(_ text: String) {
        let start = bytes.count
        append(text)
        Sanitizer.escape(&bytes, from: start)
    }

    /// Appends UTF-8 bytes to the current line with dangerous scalars escaped (`Sanitizer.escaped`).
    mutating func appendEscaped(bytes text: some Collection<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: text)
        Sanitizer.escape(&bytes, from: start)
    }

    /// Replaces what the current line holds from `start` on with `text`.
    mutating func replaceLine(from start: Int, with text: String) {
        bytes.removeSubrange(start...)
        append(text)
    }

    /// Appends a number in decimal.
    mutating func append(_ number: Int) { append(String(number)) }

    /// The lines as one String.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

import CourierBody
import CourierMessage
import CourierSecurity
import CourierHTTP
import Foundation

/// Renders a response and its attempts: as text for people (status, headers, body, one line per
/// attempt, optionally the timing breakdown) and as one stable JSON object for scripts. Shared by
/// `courier send` and `courier run`.
enum ResponseOutput {
    /// What to show besides the response itself.
    struct Options: Sendable {
        /// Print Authorization, cookies and tokens as they are.
        var showSecrets = false
        /// Add the timing breakdown of the last attempt (human output).
        var timing = false
        /// Where the body was written instead of being printed (`-o FILE`).
        var bodyFile: URL?
        /// How many records (events or lines) were printed while the body arrived; the body is not
        /// printed again.
        var streamed: Int?
        /// The status line and headers were printed when the head arrived, ahead of the streamed
        /// records (human output): they are not printed again.
        var headShown = false
        /// A cache was in use: the human output says what it decided (`cache: fresh (age 2 s, 58 s left)`).
        var showsCache = false
        /// Text output prints at most this many bytes of a body, then says how much more there was
        /// (`courier run` without `--full-bodies`); nil prints it whole.
        var bodyLimit: Int?

        init(showSecrets: Bool = false, timing: Bool = false, bodyFile: URL? = nil, streamed: Int? = nil) {
            self.showSecrets = showSecrets
            self.timing = timing
            self.bodyFile = bodyFile
            self.streamed = streamed
        }
    }

    // MARK: JSON

    /// Compact JSON with sorted keys (one line, stable for scripts).
    static func serialize(_ object: [String: Any]) -> String {
        guard let json = CompactJSON.string(object) else { return "{}" }
        // DEL, C1 and bidi controls are valid raw in JSON; as \u escapes they stay valid JSON and inert.
        return Sanitizer.escapedJSON(json)
    }

    // MARK: Human

    /// Status line, headers, body (pretty JSON when it is JSON), then one line per attempt and,
    /// with `options.timing`, the breakdown of the last attempt.
    static func human(response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord], name: String? = nil,
                      options: Options = Options()) -> String {
        var out = TextLines()
        writeHuman(response: response, error: error, attempts: attempts, name: name, options: options, into: &out)
        return out.text
    }

    /// `human`, written into `out`.
    static func writeHuman(response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord], name: String? = nil,
                           options: Options = Options(), into out: inout TextLines) {
        writeHead(response: response, name: name, options: options, into: &out)
        if let response, options.streamed == nil, options.bodyFile == nil {
            writeBody(response, limit: options.bodyLimit, into: &out)
        }
        writeTail(response: response, error: error, attempts: attempts, options: options, into: &out)
    }

    /// What comes before the body: the name, the status line, the headers and a blank line.
    static func humanHead(response: HTTPResponse?, name: String? = nil, options: Options = Options()) -> TextLines {
        var out = TextLines()
        writeHead(response: response, name: name, options: options, into: &out)
        return out
    }

    private static func writeHead(response: HTTPResponse?, name: String?, options: Options, into out: inout TextLines) {
        if let name {
            out.line("### ")
            out.append(name)
        }
        guard let response else { return }
        if !options.headShown {
            writeStatusAndHeaders(ResponseHead(response), showSecrets: options.showSecrets, into: &out)
            out.line("")
        }
        if let streamed = options.streamed {
            out.line("(body: \(streamed) \(streamed == 1 ? "record" : "records") streamed above)")
        } else if let bodyFile = options.bodyFile {
            out.line("(body: \(response.body.size) bytes written to \(bodyFile.path))")
        }
        if response.timing.bytesOnWire > 0, response.timing.bytesOnWire != response.body.size {
            out.line("(body: \(MediaKind.formatTransferSize(decoded: response.body.size, wire: response.timing.bytesOnWire)))")
        }
        if let note = response.contentEncodingNote { out.line("(\(Sanitizer.escaped(note)))") }
    }

    /// The status line and the header fields (secrets redacted unless `showSecrets`), sanitised.
    static func statusAndHeaders(_ head: ResponseHead, showSecrets: Bool) -> TextLines {
        var out = TextLines()
        writeStatusAndHeaders(head, showSecrets: showSecrets, into: &out)
        return out
    }

    private static func writeStatusAndHeaders(_ head: ResponseHead, showSecrets: Bool, into out: inout TextLines) {
        // The reason phrase is the server's text too, so it is shown, never executed.
        out.newLine()
        let start = out.bytes.count
        out.append(head.version)
        out.append(" ")
        out.append(head.status)
        out.append(" ")
        out.appendEscaped(head.reason)
        // Most status lines have no space to trim (a reason phrase is there): Foundation's trim is skipped.
        if let first = out.bytes[start...].first, let last = out.bytes.last,
           mayBeWhitespace(first) || mayBeWhitespace(last) {
            let status = String(decoding: out.bytes[start...], as: UTF8.self)
            out.replaceLine(from: start, with: status.trimmingCharacters(in: .whitespaces))
        }
        // Each value as `HTTPHeaders.redacted` shows it, written as it is masked: no redacted copy of the headers.
        for field in head.headers {
            out.line(field.name)
            out.append(": ")
            out.appendEscaped(showSecrets ? field.value
                              : SecretPolicy.maskedHeaderValue(name: field.name, value: field.value, masker: noSecrets))
        }
    }

    /// The masker of a response printed with no known secrets: only its secret headers are masked.
    private static let noSecrets = SecretMasker(secrets: [String]())

    /// Whether a line ending in `byte` may end in whitespace: a space, a tab, or a non-ASCII scalar (some are
    /// spaces too).
    private static func mayBeWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte >= 0x80
    }

    /// What comes after the body: the error, one line per attempt and the timing breakdown.
    static func humanTail(response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord],
                          options: Options = Options()) -> TextLines {
        var out = TextLines()
        writeTail(response: response, error: error, attempts: attempts, options: options, into: &out)
        return out
    }

    private static func writeTail(response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord],
                                  options: Options, into out: inout TextLines) {
        if let error { out.line("Error: \(error.logDescription) [\(error.kind)]") }
        if options.showsCache, let response { out.line("cache: " + Sanitizer.escaped(response.cache.summary)) }
        if response == nil, let streamed = options.streamed {
            out.line("(\(streamed) \(streamed == 1 ? "record" : "records") streamed before the request ended)")
        }
        if !attempts.isEmpty {
            if response != nil { out.line("") }
            for attempt in attempts { writeAttemptLine(attempt, into: &out) }
        }
        if options.timing, let timing = attempts.last(where: { $0.timing != nil })?.timing ?? response?.timing {
            out.line("")
            out.line(timingBreakdown(timing))
        }
    }

    /// `attempt 1  503  12 ms  retry in 1.00 s: HTTP 503, Retry-After 1 s`, or for the last one
    /// `attempt 3  503  9.8 ms  no retry: HTTP 503 after 3 attempts, the most allowed`
    static func attemptLine(_ record: AttemptRecord) -> String {
        var out = TextLines()
        writeAttemptLine(record, into: &out)
        return out.text
    }

    /// `attemptLine` as a line of `out`, its parts two spaces apart.
    private static func writeAttemptLine(_ record: AttemptRecord, into out: inout TextLines) {
        out.line("attempt ")
        out.append(record.sequence)
        out.append("  ")
        if let status = record.status {
            out.append(status)
        } else if let error = record.error {
            out.append(error.kind.rawValue)
        } else {
            out.append(record.cancelled ? "cancelled" : "unfinished")
        }
        if let timing = record.timing {
            out.append("  ")
            out.append(DurationText.format(timing.total))
        }
        if record.reusedConnection { out.append("  reused connection") }
        if let delay = record.delayBeforeNext {
            out.append("  retry in \(DurationText.format(delay))" + (record.retryReason.map { ": \($0)" } ?? ""))
        }
        if let declined = record.retryDeclined { out.append("  no retry: \(declined)") }
    }

    /// Where the time of one attempt went, phase by phase (like httpstat).
    static func timingBreakdown(_ timing: Timing) -> String {
        // curl's timers are cumulative from the start; each phase is the difference to the one before.
        let dns = timing.dns ?? .zero
        let connect = timing.connect ?? dns
        let tls = timing.tls ?? connect
        let firstByte = timing.firstByte ?? tls
        let rows: [(String, Duration?)] = [
            ("DNS lookup", timing.dns),
            ("TCP connect", timing.connect.map { $0 - dns }),
            ("TLS handshake", timing.tls.map { $0 - connect }),
            ("Server processing", timing.firstByte.map { $0 - tls }),
            ("Content transfer", timing.total - firstByte),
            ("Total", timing.total),
        ]
        var lines = rows.map { label, value in
            label.padding(toLength: 20, withPad: " ", startingAt: 0)
                + (value.map { DurationText.format(max($0, .zero)) } ?? "-").leftPadded(to: 12)
        }
        if timing.reusedConnection { lines.append("(reused connection: no DNS, connect or TLS)") }
        return lines.joined(separator: "\n")
    }

    /// The body as text for the terminal: pretty JSON, sanitised text, or a note for binary data. With a
    /// `limit`, a longer body is cut there (at a character's start) and a last line says how much more there was.
    static func bodyText(_ response: HTTPResponse, limit: Int? = nil) -> String? {
        var out = TextLines()
        writeBody(response, limit: limit, into: &out)
        return out.isEmpty ? nil : out.text
    }

    /// `bodyText` as a line of `out` (none for an empty body).
    private static func writeBody(_ response: HTTPResponse, limit: Int?, into out: inout TextLines) {
        guard response.body.size > 0, var data = try? response.body.readAll() else { return }
        out.newLine()
        if let limit, data.count > limit {
            var cut = data.startIndex + limit
            while cut > data.startIndex, data[cut] & 0xC0 == 0x80 { cut -= 1 }
            let more = data.endIndex - cut
            data = data[data.startIndex..<cut]
            let text = writeBody(data, size: response.body.size, contentType: response.headers["Content-Type"],
                                 into: &out)
            // A binary body is not printed at all, so there is nothing more to say about it.
            if text { out.append("\n… \(MediaKind.formatSize(more)) more; --full-bodies prints all") }
            return
        }
        writeBody(data, size: data.count, contentType: response.headers["Content-Type"], into: &out)
    }

    /// `data` as text, appended to `out`; `size` is the whole body's, for the note on a binary one (which is
    /// not cut). False when it is binary.
    @discardableResult
    private static func writeBody(_ data: Data, size: Int, contentType: String?, into out: inout TextLines) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else {
            out.append("(binary body, \(size) bytes; use -o FILE to save it)")
            return false
        }
        if looksLikeJSON(text, contentType: contentType),
           let (output, flattened) = PrettyJSONStream.formatBytes(data) {
            if flattened { Console.error(PrettyJSONStream.flattenedNote) }
            out.appendEscaped(bytes: output)
            return true
        }
        out.appendEscaped(text)
        return true
    }
}

extension ResponseOutput {
    /// Whether a body is laid out as JSON: its Content-Type says JSON, or it starts with `{` or `[`.
    static func looksLikeJSON(_ text: String, contentType: String?) -> Bool {
        if let contentType, containsJSON(contentType) { return true }
        return MediaKind.startsLikeJSON(text.utf8)
    }

    /// Whether `text` holds `json` in any case, compared byte by byte (no case folding of the whole string).
    private static func containsJSON(_ text: String) -> Bool {
        let word: StaticString = "json"
        var matched = 0
        for byte in text.utf8 {
            // ASCII letters fold to lower case by one bit; other bytes never match a letter of `json`.
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lower == word.utf8Start[matched] {
                matched += 1
                if matched == word.utf8CodeUnitCount { return true }
            } else {
                matched = lower == word.utf8Start[0] ? 1 : 0
            }
        }
        return false
    }

    /// JSON text laid out by `PrettyJSONStream` (keys in their order, indentation capped, with a note on
    /// standard error when the cap was reached); other text as it is.
    static func pretty(_ text: String) -> String {
        guard let (output, flattened) = PrettyJSONStream.format(Data(text.utf8)) else { return text }
        if flattened { Console.error(PrettyJSONStream.flattenedNote) }
        return String(decoding: output, as: UTF8.self)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

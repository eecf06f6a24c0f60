import CourierBody
import CourierCollections
import Foundation

/// Decides whether a body is a stream of records: server-sent events or newline-delimited JSON.
/// Content-Type decides when the head arrives; when it names no particular format, the decision is
/// made from the body's first bytes, strictly enough that an ordinary JSON or text body is never
/// taken for a stream.
enum StreamSniffer {
    /// What the first bytes say.
    enum Verdict: Equatable {
        case events, lines, notAStream
        /// More bytes are needed.
        case undecided
    }

    /// Field names an event stream's first line can start with (WHATWG event stream fields).
    static let eventFields: Set<String> = ["data", "event", "id", "retry"]

    /// How many bytes are looked at before a body is declared not a stream.
    static let window = 64 << 10

    /// The verdict on `prefix`, the first bytes of a body. With `forced` (`--stream`), anything that
    /// is not an event stream is a stream of lines once its first line is complete. `complete`: `prefix` is
    /// the whole body, so a first line with none after it is not a stream, JSON or not.
    static func verdict(_ prefix: Data, forced: Bool, complete: Bool = false) -> Verdict {
        var lines = completeLines(prefix)
        guard !lines.isEmpty else {
            return prefix.count >= window ? (forced ? .lines : .notAStream) : .undecided
        }
        let first = lines.removeFirst()
        if isEventLine(first) { return .events }
        if forced { return .lines }
        // NDJSON: the first line is a whole JSON object or array and another one starts after it.
        guard let firstByte = first.first, firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") else {
            return .notAStream
        }
        // A second line that cannot start a JSON value settles it before the first is parsed (a pretty-printed
        // body): a one-shot send then never starts Foundation's JSON reader.
        if let start = (lines.first ?? pendingLine(prefix))?.first,
           start != UInt8(ascii: "{") && start != UInt8(ascii: "[") { return .notAStream }
        if complete && lines.isEmpty && pendingLine(prefix) == nil { return .notAStream }
        // One value, read without building it (Foundation's reader built it, and its start cost a send 0.3 ms).
        guard first.withUnsafeBytes(JSONTokenizer.holdsOneValue) else { return .notAStream }
        guard let second = lines.first ?? pendingLine(prefix) else {
            return prefix.count >= window ? .notAStream : .undecided
        }
        guard let start = second.first else { return .undecided }
        return start == UInt8(ascii: "{") || start == UInt8(ascii: "[") ? .lines : .notAStream
    }

    /// The verdict at the head, from Content-Type alone: a stream type decides; a type in
    /// `unspecificTypes` (or none) leaves it to the bytes; any other type is not a stream, unless
    /// `forced`, which leaves every body to the bytes.
    static func verdict(contentType: String?, forced: Bool) -> Verdict {
        guard let type = mediaType(contentType) else { return .undecided }
        if type == "text/event-stream" { return .events }
        if ndjsonTypes.contains(type) { return .lines }
        return forced || unspecificTypes.contains(type) ? .undecided : .notAStream
    }

    /// The verdict once the whole body is known: Content-Type first, then the bytes.
    static func verdict(contentType: String?, prefix: Data, forced: Bool) -> Verdict {
        let type = mediaType(contentType)
        if type == "text/event-stream" { return .events }
        if let type, ndjsonTypes.contains(type) { return .lines }
        let bytes = verdict(prefix + Data([0x0A]), forced: forced, complete: true)
        return bytes == .undecided ? (forced ? .lines : .notAStream) : bytes
    }

    /// Media types of newline-delimited JSON.
    static let ndjsonTypes: Set<String> = ["application/x-ndjson", "application/ndjson", "application/jsonl",
                                           "application/json-seq"]

    /// Media types that say nothing about records, so the first bytes decide.
    static let unspecificTypes: Set<String> = [
        // The default of many servers for anything textual.
        "text/plain",
        // The default for bytes of unknown kind.
        "application/octet-stream",
        // Often sent for NDJSON by servers that do not know its own types.
        "application/json",
    ]

    /// `type/subtype` of a Content-Type value, lowercased, without parameters; nil when empty.
    static func mediaType(_ contentType: String?) -> String? {
        // HTTP's optional whitespace is spaces and tabs: Foundation's `trimmingCharacters(in:)` would start
        // CoreFoundation for it in every `courier send`.
        let type = contentType?.split(separator: ";").first?.trimmingBlanks.lowercased()
        return type?.isEmpty == false ? type : nil
    }

    /// `data: …`, `event: …`, `id: …`, `retry: …` or a `:` comment (a byte-order mark may come first).
    static func isEventLine(_ line: Data) -> Bool {
        var bytes = [UInt8](line)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.first == UInt8(ascii: ":") { return true }
        let name = bytes.prefix { $0 != UInt8(ascii: ":") }
        return eventFields.contains(String(decoding: name, as: UTF8.self))
    }

    /// The non-blank lines that end with a newline, without CR/LF.
    private static func completeLines(_ data: Data) -> [Data] {
        guard let lastNewline = data.lastIndex(of: 0x0A) else { return [] }
        return data[data.startIndex..<lastNewline].split(separator: 0x0A).map { line in
            line.last == 0x0D ? Data(line.dropLast()) : Data(line)
        }.filter { !$0.isEmpty }
    }

    /// The bytes after the last newline, when there are some.
    private static func pendingLine(_ data: Data) -> Data? {
        guard let lastNewline = data.lastIndex(of: 0x0A) else { return nil }
        let rest = data[data.index(after: lastNewline)...].drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        return rest.isEmpty ? nil : Data(rest)
    }
}

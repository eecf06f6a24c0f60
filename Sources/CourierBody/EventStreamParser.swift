import Foundation

/// One server-sent event.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` type, "message" when none was given.
    public var type: String
    /// The data lines joined by newlines.
    public var data: String
    /// The last `id:` seen (it persists across events, as the spec says).
    public var id: String?
    /// A `retry:` value in milliseconds, when this event carried one.
    public var retry: Int?
}

/// An incremental `text/event-stream` parser: feed chunks as they arrive (split anywhere, even inside a
/// line or a UTF-8 sequence), get complete events. Handles CR, LF and CRLF line ends, comments (`:`),
/// multi-line data, `id` and `retry`, per the WHATWG event stream rules.
public struct EventStreamParser: Sendable {
    private var pending: [UInt8] = []
    private var sawCR = false
    private var type = ""
    private var dataLines: [String] = []
    private var hasData = false
    private var lastID: String?
    private var retry: Int?
    private var isFirstLine = true

    /// A parser at the start of a stream.
    public init() {}

    /// Parses a chunk; returns the events it completed.
    public mutating func feed(_ chunk: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if sawCR {
                sawCR = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                sawCR = byte == 0x0D
                if let event = processLine() { events.append(event) }
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return events
    }

    /// Ends the stream: an event without its blank line is dropped, as the spec says.
    public mutating func finish() -> [ServerSentEvent] { [] }

    private mutating func processLine() -> ServerSentEvent? {
        var line = String(decoding: pending, as: UTF8.self)
        if isFirstLine { isFirstLine = false; if line.hasPrefix("\u{FEFF}") { line.removeFirst() } }
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }
        let field: Substring, value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            var rest = line[line.index(after: colon)...]
            if rest.first == " " { rest = rest.dropFirst() }
            value = rest
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "event": type = String(value)
        case "data": dataLines.append(String(value)); hasData = true
        case "id": if !value.contains("\0") { lastID = String(value) }
        case "retry": if let number = Int(value), value.allSatisfy(\.isASCII) { retry = number }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { type = ""; dataLines = []; hasData = false; retry = nil }
        guard hasData else {
            return nil
        }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: dataLines.joined(separator: "\n"),
                               id: lastID, retry: retry)
    }
}

/// Splits a newline-delimited JSON stream into records as chunks arrive (split anywhere); blank lines
/// are skipped and a CR before the newline is dropped. Linear in the stream: only the new chunk is
/// searched for newlines, and the unfinished line grows by appending, so one huge line arriving in
/// small chunks costs no more than many small lines.
public struct NDJSONSplitter: Sendable {
    /// The start of the line not finished yet.
    private var pending = Data()

    /// A splitter at the start of a stream.
    public init() {}

    /// Feeds a chunk; returns the complete records it finished, each without its newline.
    public mutating func feed(_ chunk: Data) -> [Data] {
        var records: [Data] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            var record: Data
            if pending.isEmpty {
                record = Data(chunk[start..<newline])
            } else {
                pending.append(chunk[start..<newline])
                record = pending
                pending = Data()
            }
            if record.last == 0x0D { record.removeLast() }
            if !record.isEmpty { records.append(record) }
            start = newline + 1
        }
        if start < chunk.endIndex { pending.append(chunk[start...]) }
        return records
    }

    /// Ends the stream: a last record without a newline is returned.
    public mutating func finish() -> [Data] {
        defer { pending = Data() }
        var record = pending
        if record.last == 0x0D { record.removeLast() }
        return record.isEmpty ? [] : [record]
    }
}

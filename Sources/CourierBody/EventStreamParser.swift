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
/// multi-line data, `id` and `retry`, per the WHATWG event stream rules. A line, or an event's data, longer
/// than `maxRecordSize` bytes stops the parser (`exceededLimit`): a stream that never ends a line cannot grow
/// it without bound.
public struct EventStreamParser: Sendable {
    /// The bound on one line and on one event's data, in bytes.
    public let maxRecordSize: Int
    /// Set once a line or an event's data passed `maxRecordSize`; the parser then takes nothing more.
    public private(set) var exceededLimit = false
    private var pending: [UInt8] = []
    /// Bytes of data the event being read holds so far.
    private var dataSize = 0
    private var sawCR = false
    private var type = ""
    private var dataLines: [String] = []
    private var hasData = false
    private var lastID: String?
    private var retry: Int?
    private var isFirstLine = true

    /// A parser at the start of a stream, whose lines and events' data may hold up to `maxRecordSize` bytes.
    public init(maxRecordSize: Int = .max) {
        self.maxRecordSize = maxRecordSize
    }

    /// Parses a chunk; returns the events it completed (none once `exceededLimit`).
    public mutating func feed(_ chunk: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        guard !exceededLimit else { return events }
        for byte in chunk {
            if sawCR {
                sawCR = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                sawCR = byte == 0x0D
                if let event = processLine() { events.append(event) }
                pending.removeAll(keepingCapacity: true)
                if dataSize > maxRecordSize { return exceed(events) }
            } else {
                guard pending.count < maxRecordSize else { return exceed(events) }
                pending.append(byte)
            }
        }
        return events
    }

    /// Stops taking bytes and lets go of the record that grew too long; the events before it stand.
    private mutating func exceed(_ events: [ServerSentEvent]) -> [ServerSentEvent] {
        exceededLimit = true
        pending = []
        dataLines = []
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
        case "data":
            dataLines.append(String(value))
            dataSize += value.utf8.count + 1
            hasData = true
        case "id": if !value.contains("\0") { lastID = String(value) }
        case "retry": if let number = Int(value), value.allSatisfy(\.isASCII) { retry = number }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { type = ""; dataLines = []; dataSize = 0; hasData = false; retry = nil }
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
/// small chunks costs no more than many small lines. A line longer than `maxRecordSize` bytes stops the
/// splitter (`exceededLimit`).
public struct NDJSONSplitter: Sendable {
    /// The bound on one line, in bytes.
    public let maxRecordSize: Int
    /// Set once a line passed `maxRecordSize`; the splitter then takes nothing more.
    public private(set) var exceededLimit = false
    /// The start of the line not finished yet.
    private var pending = Data()

    /// A splitter at the start of a stream, whose lines may hold up to `maxRecordSize` bytes.
    public init(maxRecordSize: Int = .max) {
        self.maxRecordSize = maxRecordSize
    }

    /// Feeds a chunk; returns the complete records it finished, each without its newline (none once
    /// `exceededLimit`).
    public mutating func feed(_ chunk: Data) -> [Data] {
        var records: [Data] = []
        guard !exceededLimit else { return records }
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            guard pending.count + (newline - start) <= maxRecordSize else {
                exceed()
                return records
            }
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
        if start < chunk.endIndex {
            guard pending.count + (chunk.endIndex - start) <= maxRecordSize else {
                exceed()
                return records
            }
            pending.append(chunk[start...])
        }
        return records
    }

    private mutating func exceed() {
        exceededLimit = true
        pending = Data()
    }

    /// Ends the stream: a last record without a newline is returned.
    public mutating func finish() -> [Data] {
        guard !exceededLimit else { return [] }
        defer { pending = Data() }
        var record = pending
        if record.last == 0x0D { record.removeLast() }
        return record.isEmpty ? [] : [record]
    }
}

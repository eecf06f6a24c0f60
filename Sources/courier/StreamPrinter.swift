import CourierMessage
import CourierSecurity
import CourierBody
import CourierHTTP
import Foundation
import Synchronization

/// Prints a body record by record while it arrives: each server-sent event or NDJSON line as soon
/// as it is complete, as pretty text for people or as one JSON object per record for scripts. For
/// people, the status line and headers of a streamed response come first, as soon as the body turns
/// out to be a stream (at the head when Content-Type says so). Fed from the transport's thread
/// (`RequestContext.onHead` and `onChunk`); the lock keeps the head and the records in order. A record
/// (an event's data or a line) longer than the line limit stops the stream with `tooLarge`, so a server that
/// never ends a line cannot grow the printer without bound.
final class StreamPrinter: Sendable {
    /// The line limit unless `--line-limit` says otherwise: 16 MB.
    static let defaultLineLimit = 16 << 20

    private struct State {
        var verdict = StreamSniffer.Verdict.undecided
        /// The head of the response being received, until it is printed.
        var head: ResponseHead?
        /// A head has been printed (for any attempt), so the final report leaves it out.
        var headShown = false
        /// The bytes seen while the verdict is open (at most `StreamSniffer.window` and a chunk).
        var prefix = Data()
        var received = 0
        var events: EventStreamParser
        var lines: NDJSONSplitter
        var printed = 0
        /// Why the stream must stop: a record past the line limit.
        var failure: APIError?

        init(lineLimit: Int) {
            events = EventStreamParser(maxRecordSize: lineLimit)
            lines = NDJSONSplitter(maxRecordSize: lineLimit)
        }
    }

    private let state: Mutex<State>
    private let lineLimit: Int
    private let json: Bool
    private let forced: Bool
    private let showSecrets: Bool
    private let write: @Sendable (String) -> Void

    /// `json` prints one object per record (and no head: the final object carries it); `forced`
    /// (`--stream`) streams bodies the sniffer would not; `showSecrets` prints the head's secrets; a record
    /// longer than `lineLimit` bytes stops the stream; `write` receives each piece of text (standard output by
    /// default).
    init(json: Bool, forced: Bool, showSecrets: Bool = false, lineLimit: Int = defaultLineLimit,
         write: @escaping @Sendable (String) -> Void = { Console.out($0) }) {
        state = Mutex(State(lineLimit: lineLimit))
        self.lineLimit = lineLimit
        self.json = json
        self.forced = forced
        self.showSecrets = showSecrets
        self.write = write
    }

    /// Whether records are being printed (a progress line would be in their way).
    var isStreaming: Bool { state.withLock { $0.verdict == .events || $0.verdict == .lines } }

    /// Why the transfer must stop (a record past the line limit), once it must.
    var failure: APIError? { state.withLock { $0.failure } }

    /// Whether a status line and headers were printed ahead of the records.
    var headShown: Bool { state.withLock { $0.headShown } }

    /// A response's head has arrived: its body starts over (records already printed stay printed),
    /// and Content-Type decides whether it is a stream, or leaves that to the first bytes. A stream's
    /// head is printed at once.
    func begin(_ head: ResponseHead) {
        state.withLock { state in
            startOver(&state)
            state.head = head
            state.verdict = StreamSniffer.verdict(contentType: head.headers["Content-Type"], forced: forced)
            if state.verdict == .events || state.verdict == .lines { printHead(&state) }
        }
    }

    /// Takes the next chunk of the body and prints the records it completes.
    func feed(_ chunk: Data) {
        state.withLock { state in
            state.received += chunk.count
            switch state.verdict {
            case .notAStream:
                return
            case .undecided:
                state.prefix.append(chunk)
                state.verdict = StreamSniffer.verdict(state.prefix, forced: forced)
                if state.verdict == .notAStream { state.prefix = Data() }
                guard state.verdict == .events || state.verdict == .lines else { return }
                printHead(&state)
                let buffered = state.prefix
                state.prefix = Data()
                printRecords(buffered, state: &state)
            case .events, .lines:
                printRecords(chunk, state: &state)
            }
        }
    }

    /// Feeds a body that reached the command without passing through `feed`: an answer from the
    /// cache hands over its head but not its bytes. Read in chunks, and only until it is known not
    /// to be a stream.
    func replay(_ body: ResponseBody) {
        guard body.size > 0, state.withLock({ $0.received == 0 }) else { return }
        switch body {
        case .data(let data):
            feed(data)
        case .file(let url, _):
            guard let handle = try? FileHandle(forReadingFrom: url) else { return }
            defer { try? handle.close() }
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                feed(chunk)
                if state.withLock({ $0.verdict == .notAStream || $0.failure != nil }) { return }
            }
        }
    }

    /// A new attempt starts a new body: the parsers start over (records already printed stay printed).
    func restart() {
        state.withLock { startOver(&$0) }
    }

    /// A new response starts a new body: the parsers start over; what was printed stays printed.
    private func startOver(_ state: inout State) {
        let (printed, headShown) = (state.printed, state.headShown)
        state = State(lineLimit: lineLimit)
        state.printed = printed
        state.headShown = headShown
    }

    /// Ends the body: prints what the last chunk left (a last NDJSON line without a newline, a body
    /// too short to decide on that Content-Type says is a stream). Returns how many records were
    /// printed, or nil when the body was not streamed and should be shown as usual.
    func finish(contentType: String?) -> Int? {
        state.withLock { state in
            // A body that Content-Type called a stream at the head counts as streamed even when empty.
            guard state.received > 0 || state.verdict == .events || state.verdict == .lines else { return nil }
            if state.verdict == .undecided {
                state.verdict = StreamSniffer.verdict(contentType: contentType, prefix: state.prefix, forced: forced)
                guard state.verdict == .events || state.verdict == .lines else { return nil }
                printHead(&state)
                let buffered = state.prefix
                state.prefix = Data()
                printRecords(buffered, state: &state)
            }
            switch state.verdict {
            case .events: emit(state.events.finish().map(render), state: &state)
            case .lines: emit(state.lines.finish().map(render), state: &state)
            case .notAStream, .undecided: return nil
            }
            return state.printed
        }
    }

    // MARK: Rendering

    /// The status line, headers and a blank line, for people, once per response.
    private func printHead(_ state: inout State) {
        guard !json, let head = state.head else { return }
        state.head = nil
        state.headShown = true
        var lines = ResponseOutput.statusAndHeaders(head, showSecrets: showSecrets)
        lines.line("")
        write(lines.text)
    }

    private func printRecords(_ data: Data, state: inout State) {
        switch state.verdict {
        case .events:
            emit(state.events.feed(data).map(render), state: &state)
            if state.events.exceededLimit { state.failure = .tooLarge(limit: lineLimit, part: .streamRecord) }
        case .lines:
            emit(state.lines.feed(data).map(render), state: &state)
            if state.lines.exceededLimit { state.failure = .tooLarge(limit: lineLimit, part: .streamRecord) }
        case .notAStream, .undecided: break
        }
    }

    private func emit(_ records: [String], state: inout State) {
        for record in records { write(record) }
        state.printed += records.count
    }

    /// `event: tick  id: 3` and the data (pretty when it is JSON), or `{"type":"event",…}`.
    private func render(_ event: ServerSentEvent) -> String {
        let parsed = Self.parse(Data(event.data.utf8))
        if json {
            var object: [String: Any] = ["type": "event", "event": event.type, "data": event.data,
                                         "id": event.id.map { $0 as Any } ?? NSNull()]
            if let parsed { object["json"] = parsed }
            return ResponseOutput.serialize(object)
        }
        var heading = "event: \(Sanitizer.escaped(event.type))"
        if let id = event.id { heading += "  id: \(Sanitizer.escaped(id))" }
        return heading + "\n" + Self.pretty(event.data, isJSON: parsed != nil) + "\n"
    }

    /// One NDJSON line, pretty when it is JSON, or `{"type":"line","json":…}` (`"text"` when it is not JSON).
    private func render(_ line: Data) -> String {
        let parsed = Self.parse(line)
        let text = String(decoding: line, as: UTF8.self)
        if json {
            var object: [String: Any] = ["type": "line"]
            if let parsed { object["json"] = parsed } else { object["text"] = text }
            return ResponseOutput.serialize(object)
        }
        return Self.pretty(text, isJSON: parsed != nil)
    }

    private static func parse(_ data: Data) -> Any? {
        try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    }

    private static func pretty(_ text: String, isJSON: Bool) -> String {
        Sanitizer.escaped(isJSON ? ResponseOutput.pretty(text) : text)
    }
}

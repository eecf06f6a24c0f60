import CourierBody
import Foundation
import Synchronization

/// Prints a body record by record while it arrives: each server-sent event or NDJSON line as soon
/// as it is complete, as pretty text for people or as one JSON object per record for scripts.
/// Fed from the transport's thread (`RequestContext.onChunk`); the lock keeps records in order.
final class StreamPrinter: Sendable {
    private struct State {
        var verdict = StreamSniffer.Verdict.undecided
        /// The bytes seen while the verdict is open (at most `StreamSniffer.window` and a chunk).
        var prefix = Data()
        var received = 0
        var events = EventStreamParser()
        var lines = NDJSONSplitter()
        var printed = 0
    }

    private let state = Mutex(State())
    private let json: Bool
    private let forced: Bool
    private let write: @Sendable (String) -> Void

    /// `json` prints one object per record; `forced` (`--stream`) streams bodies the sniffer would
    /// not; `write` receives each record's text (standard output by default).
    init(json: Bool, forced: Bool, write: @escaping @Sendable (String) -> Void = { Console.out($0) }) {
        self.json = json
        self.forced = forced
        self.write = write
    }

    /// Whether records are being printed (a progress line would be in their way).
    var isStreaming: Bool { state.withLock { $0.verdict == .events || $0.verdict == .lines } }

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
                let buffered = state.prefix
                state.prefix = Data()
                printRecords(buffered, state: &state)
            case .events, .lines:
                printRecords(chunk, state: &state)
            }
        }
    }

    /// A new attempt starts a new body: the parsers start over (records already printed stay printed).
    func restart() {
        state.withLock { state in
            let printed = state.printed
            state = State()
            state.printed = printed
        }
    }

    /// Ends the body: prints what the last chunk left (a last NDJSON line without a newline, a body
    /// too short to decide on that Content-Type says is a stream). Returns how many records were
    /// printed, or nil when the body was not streamed and should be shown as usual.
    func finish(contentType: String?) -> Int? {
        state.withLock { state in
            guard state.received > 0 else { return nil }
            if state.verdict == .undecided {
                state.verdict = StreamSniffer.verdict(contentType: contentType, prefix: state.prefix, forced: forced)
                guard state.verdict == .events || state.verdict == .lines else { return nil }
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

    private func printRecords(_ data: Data, state: inout State) {
        switch state.verdict {
        case .events: emit(state.events.feed(data).map(render), state: &state)
        case .lines: emit(state.lines.feed(data).map(render), state: &state)
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
        var heading = "event: \(Terminal.sanitize(event.type))"
        if let id = event.id { heading += "  id: \(Terminal.sanitize(id))" }
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
        Terminal.sanitize(isJSON ? JSONPretty.indent(text) : text)
    }
}

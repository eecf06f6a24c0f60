import CourierBody
import Foundation

/// The event view of `text/event-stream` and NDJSON bodies: one block per event or record.
enum ResponseEventLines {
    static func make(_ body: BodyDocument, _ media: MediaKind) -> StaticLines {
        let bytes = body.bytes
        var lines: [ColoredLine] = []
        func add(_ text: String, _ role: TextRole) { lines.append(ColoredLine(text: text, spans: [.init(0..<text.count, role)])) }
        if media.category == .eventStream {
            var parser = EventStreamParser()
            for (index, event) in parser.feed(bytes).enumerated() {
                add("#\(index + 1) \(event.type)" + (event.id.map { "  id \($0)" } ?? ""), .key)
                for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) { add("  " + line, .string) }
            }
        } else {
            var splitter = NDJSONSplitter()
            let records = splitter.feed(bytes) + splitter.finish()
            for (index, record) in records.enumerated() {
                add("#\(index + 1)", .key)
                let document = PrettyJSONDocument(data: record)
                document.indexAll()
                for line in 0..<document.lineCount {
                    var colored = document.coloredLine(line)
                    colored.text = "  " + colored.text
                    colored.spans = colored.spans.map { .init($0.range.lowerBound + 2..<$0.range.upperBound + 2, $0.role) }
                    lines.append(colored)
                }
            }
        }
        if lines.isEmpty { add("(no events yet)", .muted) }
        return StaticLines(lines)
    }
}

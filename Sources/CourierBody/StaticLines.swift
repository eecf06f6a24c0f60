/// A small fixed list of lines as a line source: headers, diff output, events, messages.
public final class StaticLines: LineSource, Sendable {
    public let lines: [ColoredLine]

    /// Creates the value from its parts.
    public init(_ lines: [ColoredLine]) { self.lines = lines }
    /// Creates the value from its parts.
    public convenience init(_ lines: [String], role: TextRole = .text) {
        self.init(lines.map { ColoredLine(text: $0, spans: [ColoredLine.Span(0..<$0.count, role)]) })
    }

    public var lineCount: Int { lines.count }
    public var isComplete: Bool { true }
    /// See `LineSource`.
    public func indexMore() -> Bool { true }
    /// See `LineSource`.
    public func line(_ index: Int) -> String { lines.indices.contains(index) ? lines[index].text : "" }
    /// See `LineSource`.
    public func coloredLine(_ index: Int) -> ColoredLine { lines.indices.contains(index) ? lines[index] : ColoredLine(text: "") }
}

/// A horizontal bar made of coloured segments on a shared time scale: the log's waterfall
/// (DNS, connect, TLS, wait, transfer). Segment edges fall on whole cells; a segment shorter
/// than a cell but not zero still gets one cell so a phase never disappears.
public struct SegmentBar: Sendable, Hashable {
    /// One piece of the bar.
    public struct Segment: Sendable, Hashable {
        public var start: Double
        public var length: Double
        public var style: Style
        public init(start: Double, length: Double, style: Style) {
            self.start = start
            self.length = length
            self.style = style
        }
    }

    public var segments: [Segment]
    /// The value the full width stands for (e.g. the longest attempt's seconds).
    public var scale: Double
    /// The character for filled cells; a space shows the background colour only.
    public var fill: Character

    public init(_ segments: [Segment], scale: Double, fill: Character = " ") {
        self.segments = segments
        self.scale = scale
        self.fill = fill
    }

    /// The cell columns each segment covers in a bar `width` cells wide, in segment order.
    public func columns(width: Int) -> [Range<Int>] {
        guard width > 0, scale > 0 else { return segments.map { _ in 0..<0 } }
        var last = 0
        return segments.map { segment in
            guard segment.length > 0 else { return last..<last }
            var from = Int((segment.start / scale * Double(width)).rounded())
            var to = Int(((segment.start + segment.length) / scale * Double(width)).rounded())
            from = Swift.min(Swift.max(from, last), width)
            to = Swift.min(Swift.max(to, from + 1), width)
            if from >= width { from = width - 1; to = width }
            last = to
            return from..<to
        }
    }

    /// Draws the bar on `area`'s first row.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        for (segment, range) in zip(segments, columns(width: area.width)) {
            for column in range {
                buffer.put(Cell(String(fill), style: segment.style), x: area.x + column, y: area.y)
            }
        }
    }
}

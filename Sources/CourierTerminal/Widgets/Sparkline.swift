/// A one-row chart of recent values with eighth-block characters: `▁▂▄█▃`. Used for latency history.
public struct Sparkline: Widget, Sendable, Hashable {
    public var values: [Double]
    public var style: Style
    /// The value drawn as a full block; nil scales to the largest value.
    public var maximum: Double?

    public static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public init(_ values: [Double], style: Style = .plain, maximum: Double? = nil) {
        self.values = values
        self.style = style
        self.maximum = maximum
    }

    /// Draws the last values that fit, newest on the right.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        buffer.write(text(width: area.width), x: area.x, y: area.y, style: style, maxWidth: area.width)
    }

    /// The sparkline as text, at most `width` characters.
    public func text(width: Int) -> String {
        let shown = values.suffix(Swift.max(0, width)).map { $0.isFinite ? Swift.max(0, $0) : 0 }
        let top = maximum ?? (shown.max() ?? 0)
        return String(shown.map { value -> Character in
            guard top > 0 else { return Sparkline.levels[0] }
            // Eighths rounded up, so any non-zero value rises above the floor once others are small.
            let level = Int((value / top * Double(Sparkline.levels.count)).rounded(.up)) - 1
            return Sparkline.levels[Swift.min(Swift.max(0, level), Sparkline.levels.count - 1)]
        })
    }
}

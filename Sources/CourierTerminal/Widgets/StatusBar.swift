/// One hint in the status bar: a key and what it does.
public struct KeyHint: Sendable, Hashable {
    public var key: String
    public var label: String
    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}

/// The bottom line: key hints on the left, a message on the right. Hints that do not fit are
/// dropped whole rather than cut in half.
public struct StatusBar: Widget, Sendable, Hashable {
    public var hints: [KeyHint]
    public var message: StyledLine
    public var style: Style
    public var keyStyle: Style

    public init(hints: [KeyHint], message: StyledLine = StyledLine(), style: Style = Style(attributes: .reverse),
                keyStyle: Style = Style(attributes: [.reverse, .bold])) {
        self.hints = hints
        self.message = message
        self.style = style
        self.keyStyle = keyStyle
    }

    /// Draws the bar on the first row of `area`.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, with: Cell(" ", style: style))
        let messageWidth = max(0, min(message.width, row.width - 2))
        let hintRoom = row.width - (messageWidth > 0 ? messageWidth + 2 : 0)
        var x = row.x + 1
        for hint in hints {
            let width = DisplayWidth.of(hint.key) + 1 + DisplayWidth.of(hint.label)
            if x + width > row.x + hintRoom { break }
            x += buffer.write(hint.key, x: x, y: row.y, style: keyStyle)
            x += buffer.write(" " + hint.label, x: x, y: row.y, style: style) + 2
        }
        if messageWidth > 0 {
            buffer.write(message, x: row.maxX - messageWidth - 1, y: row.y, maxWidth: messageWidth, base: style)
        }
    }
}

/// One hint in the status bar: a key and what it does.
public struct KeyHint: Sendable, Hashable {
    public var key: String
    public var label: String
    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}

/// The bottom line: a lead (a message, or what is under way) and key hints on the left, a message on the
/// right. Hints that do not fit are dropped whole rather than cut in half, except the `pinned` ones (how to
/// get help, how to quit), which keep their place at the end; a lead too long is cut with `…`; the right
/// message is dropped when it would leave the left side fewer than `minimumLeftWidth` columns.
public struct StatusBar: Widget, Sendable, Hashable {
    public var lead: StyledLine
    public var hints: [KeyHint]
    /// Hints shown whatever else is dropped, after the others.
    public var pinned: [KeyHint] = []
    public var message: StyledLine
    public var style: Style
    public var keyStyle: Style
    /// The columns the left side keeps before the right message is shown.
    public static let minimumLeftWidth = 30

    public init(lead: StyledLine = StyledLine(), hints: [KeyHint], message: StyledLine = StyledLine(),
                style: Style = Style(attributes: .reverse), keyStyle: Style = Style(attributes: [.reverse, .bold])) {
        self.lead = lead
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
        // The right message with a space either side.
        let rightWidth = message.spans.isEmpty ? 0 : message.width + 2
        let leftWidth = row.width - (rightWidth > 0 && row.width > rightWidth + Self.minimumLeftWidth ? rightWidth : 0)
        let pinnedWidth = pinned.reduce(0) { $0 + Self.width(of: $1) }
        let reserved = pinnedWidth < leftWidth - 1 ? pinnedWidth : 0
        var left = StyledLine(" ", style: style)
        // A lead followed by hints keeps two columns between them.
        let gap = reserved > 0 && !lead.spans.isEmpty && !lead.plainText.hasSuffix("  ") ? 2 : 0
        left.spans += lead.fitted(to: max(0, leftWidth - 1 - reserved - gap)).spans
        if gap > 0 { left.append("  ", style: style) }
        var used = left.width
        for hint in hints {
            let width = Self.width(of: hint)
            guard used + width + reserved <= leftWidth else { break }
            append(hint, to: &left)
            used += width
        }
        if reserved > 0 { for hint in pinned { append(hint, to: &left) } }
        buffer.write(left, x: row.x, y: row.y, maxWidth: leftWidth)
        if leftWidth < row.width {
            buffer.write(message, x: row.maxX - rightWidth + 1, y: row.y, maxWidth: rightWidth - 1, base: style)
        }
    }

    /// The columns `hint` takes in the bar, with the spaces after it.
    public static func width(of hint: KeyHint) -> Int { DisplayWidth.of(hint.key) + DisplayWidth.of(hint.label) + 3 }

    private func append(_ hint: KeyHint, to line: inout StyledLine) {
        line.append(hint.key, style: keyStyle)
        line.append(" \(hint.label)  ", style: style)
    }
}

import CourierSecurity
/// Where a text view is scrolled to, kept by the app between frames.
public struct TextViewState: Sendable, Hashable {
    /// The first line shown.
    public var top: Int
    /// Columns scrolled off the left edge (ignored when wrapping).
    public var left: Int
    /// Long lines continue on the next rows instead of being cut.
    public var wrap: Bool

    public init(top: Int = 0, left: Int = 0, wrap: Bool = false) {
        self.top = top
        self.left = left
        self.wrap = wrap
    }

    /// Scrolls by `delta` lines, kept within `lineCount` so the last page stays full.
    public mutating func scroll(by delta: Int, lineCount: Int, height: Int) {
        top = Swift.min(Swift.max(0, top + delta), Swift.max(0, lineCount - Swift.max(1, height)))
    }

    /// Scrolls sideways by `delta` columns (never left of 0).
    public mutating func scrollHorizontally(by delta: Int) { left = Swift.max(0, left + delta) }

    /// Scrolls so `line` is visible in a view `height` rows high.
    public mutating func reveal(line: Int, height: Int) {
        if line < top { top = line } else if line >= top + height { top = line - height + 1 }
        top = Swift.max(0, top)
    }
}

/// A virtualised view of many lines: it asks its provider only for the lines it shows, so a
/// body of a million lines costs the same to draw as one of ten.
public struct TextView {
    public var lineCount: Int
    /// Returns line `index` (0-based); called only for visible lines.
    public var line: (Int) -> StyledLine
    /// Draws line numbers in a gutter on the left.
    public var lineNumbers: Bool
    public var gutterStyle: Style

    public init(lineCount: Int, lineNumbers: Bool = false, gutterStyle: Style = Style(attributes: .dim),
                line: @escaping (Int) -> StyledLine) {
        self.lineCount = lineCount
        self.line = line
        self.lineNumbers = lineNumbers
        self.gutterStyle = gutterStyle
    }

    /// A view over lines already in memory.
    public init(lines: [StyledLine], lineNumbers: Bool = false) {
        self.init(lineCount: lines.count, lineNumbers: lineNumbers) { lines[$0] }
    }

    /// Draws the lines from `state.top` that fit in `area`.
    public func render(into buffer: inout Buffer, area: Rect, state: TextViewState) {
        guard !area.isEmpty else { return }
        let gutter = lineNumbers ? String(Swift.max(1, lineCount)).count + 1 : 0
        let textX = area.x + gutter
        let textWidth = area.width - gutter
        guard textWidth > 0 else { return }
        var row = 0
        var index = Swift.max(0, state.top)
        while row < area.height, index < lineCount {
            let content = line(index)
            if gutter > 0 {
                let number = String(index + 1)
                let pad = String(repeating: " ", count: gutter - 1 - number.count)
                buffer.write(pad + number, x: area.x, y: area.y + row, style: gutterStyle, maxWidth: gutter - 1)
            }
            if state.wrap {
                let rows = TextView.wrap(content, width: textWidth)
                for piece in rows where row < area.height {
                    buffer.write(piece, x: textX, y: area.y + row, maxWidth: textWidth)
                    row += 1
                }
            } else {
                buffer.write(content, x: textX, y: area.y + row, maxWidth: textWidth, skip: state.left)
                row += 1
            }
            index += 1
        }
    }

    /// Splits a line into rows of at most `width` columns at the column edge (character wrap, so a
    /// 10,000-character token is shown whole). Always at least one row.
    public static func wrap(_ line: StyledLine, width: Int) -> [StyledLine] {
        guard width > 0 else { return [line] }
        var rows: [StyledLine] = []
        var current: [Span] = []
        var currentWidth = 0
        var pending = ""
        var pendingStyle = Style.plain
        func flushPending() {
            if !pending.isEmpty { current.append(Span(pending, style: pendingStyle)); pending = "" }
        }
        func breakRow() {
            flushPending()
            rows.append(StyledLine(current))
            current = []
            currentWidth = 0
        }
        for span in line.spans {
            if span.style != pendingStyle { flushPending(); pendingStyle = span.style }
            for character in Sanitizer.sanitize(span.text) {
                let w = DisplayWidth.of(character)
                if currentWidth + w > width { breakRow() }
                pending.append(character)
                currentWidth += w
            }
        }
        flushPending()
        if !current.isEmpty || rows.isEmpty { rows.append(StyledLine(current)) }
        return rows
    }
}

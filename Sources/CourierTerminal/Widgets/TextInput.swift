/// A one-line input field drawing a `LineEditor`, scrolled sideways so the cursor stays visible.
public struct TextInput: Sendable, Hashable {
    public var editor: LineEditor
    public var style: Style
    /// Shown dimmed when the field is empty.
    public var placeholder: String
    public var placeholderStyle: Style
    /// Draws every character as this one (passwords, tokens).
    public var mask: Character?

    public init(_ editor: LineEditor, style: Style = .plain, placeholder: String = "",
                placeholderStyle: Style = Style(attributes: .dim), mask: Character? = nil) {
        self.editor = editor
        self.style = style
        self.placeholder = placeholder
        self.placeholderStyle = placeholderStyle
        self.mask = mask
    }

    /// The columns scrolled off the left so the cursor fits in `width` (with room for it at the end).
    public static func scrollOffset(cursorColumn: Int, width: Int) -> Int {
        guard width > 0 else { return 0 }
        return Swift.max(0, cursorColumn - width + 1)
    }

    /// Draws the field on `area`'s first row and returns where the terminal cursor goes.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Position? {
        guard !area.isEmpty else { return nil }
        let row = area.row(0)
        buffer.fill(row, with: Cell(" ", style: style))
        if editor.isEmpty {
            buffer.write(placeholder, x: row.x, y: row.y, style: style.overlaid(by: placeholderStyle),
                         maxWidth: row.width)
            return Position(x: row.x, y: row.y)
        }
        var shown = editor.text
        var cursorColumn = editor.cursorColumn
        if let mask {
            shown = String(repeating: mask, count: editor.characters.count)
            cursorColumn = editor.cursor * DisplayWidth.of(mask)
        }
        let skip = TextInput.scrollOffset(cursorColumn: cursorColumn, width: row.width)
        buffer.write(StyledLine(shown, style: style), x: row.x, y: row.y, maxWidth: row.width, skip: skip)
        return Position(x: row.x + cursorColumn - skip, y: row.y)
    }
}

/// A multi-line input: the lines that fit from the top, the cursor's line scrolled sideways so the cursor
/// stays in view (the other lines start at their first character), each line's visible text styled by
/// `styled` (variables coloured, say). Returns where the terminal cursor goes.
public struct TextArea {
    public var lines: [[Character]]
    public var row: Int
    public var column: Int
    /// The first line shown, unless the cursor's line is below the view.
    public var top: Int
    /// Whether the cursor shows (the field is being edited); without it every line starts at its start.
    public var showsCursor: Bool
    /// The style of the empty cells.
    public var style: Style
    /// Styles the visible text of a line.
    public var styled: (String) -> StyledLine

    public init(lines: [[Character]], row: Int, column: Int, top: Int = 0, showsCursor: Bool = true,
                style: Style = .plain, styled: ((String) -> StyledLine)? = nil) {
        self.lines = lines
        self.row = row
        self.column = column
        self.top = top
        self.showsCursor = showsCursor
        self.style = style
        self.styled = styled ?? { StyledLine($0, style: style) }
    }

    /// An area over a `TextAreaEditor`'s lines and cursor.
    public init(_ editor: TextAreaEditor, style: Style = .plain, showsCursor: Bool = true,
                styled: ((String) -> StyledLine)? = nil) {
        self.init(lines: editor.lines, row: editor.row, column: editor.column, top: editor.top, showsCursor: showsCursor,
                  style: style, styled: styled)
    }

    /// Draws the visible lines and returns where the terminal cursor goes (nil when it does not show).
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Position? {
        guard !area.isEmpty else { return nil }
        buffer.fill(area, with: Cell(" ", style: style))
        var top = Swift.min(self.top, row)
        if row >= top + area.height { top = row - area.height + 1 }
        var cursor: Position?
        for offset in 0..<area.height {
            let index = top + offset
            guard index < lines.count else { break }
            let cursorColumn = showsCursor && index == row ? column : nil
            let (start, text) = TextArea.window(lines[index], cursor: cursorColumn, width: area.width)
            buffer.write(styled(text), x: area.x, y: area.y + offset, maxWidth: area.width)
            if let cursorColumn {
                let used = DisplayWidth.of(String(lines[index][start..<Swift.min(cursorColumn, lines[index].count)]))
                cursor = Position(x: area.x + Swift.min(area.width - 1, used), y: area.y + offset)
            }
        }
        return cursor
    }

    /// The characters of `line` that fit in `width` columns with the cursor visible: the first character's
    /// index, and the text from there. Whole characters only, so a wide one is never cut in half.
    public static func window(_ line: [Character], cursor: Int?, width: Int) -> (start: Int, text: String) {
        guard let cursor, width > 1 else { return (0, String(line)) }
        let end = Swift.min(cursor, line.count)
        var start = 0
        while start < end && DisplayWidth.of(String(line[start..<end])) > width - 1 { start += 1 }
        return (start, String(line[start...]))
    }
}

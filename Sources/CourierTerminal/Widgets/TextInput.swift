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

/// A multi-line input drawing a `TextAreaEditor` from its `top` line; returns the cursor.
public struct TextArea: Sendable, Hashable {
    public var editor: TextAreaEditor
    public var style: Style

    public init(_ editor: TextAreaEditor, style: Style = .plain) {
        self.editor = editor
        self.style = style
    }

    /// Draws the visible lines and returns where the terminal cursor goes (nil when scrolled away).
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Position? {
        guard !area.isEmpty else { return nil }
        buffer.fill(area, with: Cell(" ", style: style))
        var top = Swift.min(editor.top, editor.row)
        if editor.row >= top + area.height { top = editor.row - area.height + 1 }
        let skip = TextInput.scrollOffset(cursorColumn: editor.cursorColumn, width: area.width)
        for row in 0..<area.height {
            let index = top + row
            guard index < editor.lines.count else { break }
            let line = StyledLine(String(editor.lines[index]), style: style)
            buffer.write(line, x: area.x, y: area.y + row, maxWidth: area.width, skip: skip)
        }
        return Position(x: area.x + editor.cursorColumn - skip, y: area.y + editor.row - top)
    }
}

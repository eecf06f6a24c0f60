import CourierSecurity
/// The characters of a box border.
public struct BorderSet: Sendable, Hashable {
    public var horizontal: Character
    public var vertical: Character
    public var topLeft: Character
    public var topRight: Character
    public var bottomLeft: Character
    public var bottomRight: Character

    public init(horizontal: Character, vertical: Character, topLeft: Character, topRight: Character,
                bottomLeft: Character, bottomRight: Character) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
    }

    /// Thin lines with square corners: `┌─┐`.
    public static let plain = BorderSet(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐",
                                        bottomLeft: "└", bottomRight: "┘")
    /// Thin lines with round corners: `╭─╮`.
    public static let rounded = BorderSet(horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮",
                                          bottomLeft: "╰", bottomRight: "╯")
    /// Thick lines, for the focused pane: `┏━┓`.
    public static let thick = BorderSet(horizontal: "━", vertical: "┃", topLeft: "┏", topRight: "┓",
                                        bottomLeft: "┗", bottomRight: "┛")
    /// Double lines, for modals: `╔═╗`.
    public static let double = BorderSet(horizontal: "═", vertical: "║", topLeft: "╔", topRight: "╗",
                                         bottomLeft: "╚", bottomRight: "╝")
}

/// A bordered box with a title on the left and another on the right. Panes draw their content
/// inside `inner(_:)`.
public struct Block: Widget, Sendable, Hashable {
    public var title: StyledLine
    public var rightTitle: StyledLine
    public var borders: BorderSet
    public var borderStyle: Style
    /// Style of the inside, applied before content is drawn (so a modal covers what is below).
    public var fillStyle: Style?

    public init(title: StyledLine = StyledLine(), rightTitle: StyledLine = StyledLine(), borders: BorderSet = .plain,
                borderStyle: Style = .plain, fillStyle: Style? = nil) {
        self.title = title
        self.rightTitle = rightTitle
        self.borders = borders
        self.borderStyle = borderStyle
        self.fillStyle = fillStyle
    }

    /// The area inside the border.
    public func inner(_ area: Rect) -> Rect { area.inset(1) }

    /// Draws the border and titles; fills the inside when `fillStyle` is set.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard area.width >= 2, area.height >= 2 else { return }
        if let fillStyle { buffer.fill(area, with: Cell(" ", style: fillStyle)) }
        let b = borders, s = borderStyle
        let right = area.maxX - 1, bottom = area.maxY - 1
        for x in area.x + 1..<right {
            buffer.put(Cell(String(b.horizontal), style: s), x: x, y: area.y)
            buffer.put(Cell(String(b.horizontal), style: s), x: x, y: bottom)
        }
        for y in area.y + 1..<bottom {
            buffer.put(Cell(String(b.vertical), style: s), x: area.x, y: y)
            buffer.put(Cell(String(b.vertical), style: s), x: right, y: y)
        }
        buffer.put(Cell(String(b.topLeft), style: s), x: area.x, y: area.y)
        buffer.put(Cell(String(b.topRight), style: s), x: right, y: area.y)
        buffer.put(Cell(String(b.bottomLeft), style: s), x: area.x, y: bottom)
        buffer.put(Cell(String(b.bottomRight), style: s), x: right, y: bottom)
        // Titles sit on the top border with one space either side; the left title wins the room.
        let room = area.width - 4
        guard room > 0 else { return }
        var used = 0
        if !title.spans.isEmpty {
            used = buffer.write(padded(Block.fitted(title, room)), x: area.x + 1, y: area.y, maxWidth: room + 2)
        }
        let rightWidth = rightTitle.width + 2
        if !rightTitle.spans.isEmpty, used + rightWidth + 1 <= room + 2 {
            buffer.write(padded(rightTitle), x: right - rightWidth, y: area.y, maxWidth: rightWidth)
        }
    }

    /// The line cut to `width` columns with an ellipsis when it is longer.
    static func fitted(_ line: StyledLine, _ width: Int) -> StyledLine { line.fitted(to: width) }

    private func padded(_ line: StyledLine) -> StyledLine {
        let style = line.spans.first?.style ?? .plain
        return StyledLine([Span(" ", style: style)] + line.spans + [Span(" ", style: style)])
    }
}

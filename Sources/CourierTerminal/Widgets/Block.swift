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

/// A bordered box with a title on the left and another on the right: `╭─ 3 Response ──── ● open ─╮`.
/// Content goes inside `inner(_:)`.
///
/// The titles sit between `╭─` and `─╮`, one space either side, and never run into a corner. A title too
/// long for the edge is cut with `…`; the right title is dropped before the left one is cut shorter than
/// `minimumTitleWidth` columns.
public struct Block: Widget, Sendable, Hashable {
    public var title: StyledLine
    public var rightTitle: StyledLine
    public var borders: BorderSet
    public var borderStyle: Style
    /// Style of the inside, applied before content is drawn (so a modal covers what is below).
    public var fillStyle: Style?
    /// The left title's columns (its spaces included) the right title never takes.
    public static let minimumTitleWidth = 12

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
        renderTitles(into: &buffer, area: area)
    }

    private func renderTitles(into buffer: inout Buffer, area: Rect) {
        let room = area.width - 4
        guard room > 0, !title.spans.isEmpty || !rightTitle.spans.isEmpty else { return }
        var left = Block.padded(title)
        let rightShown = rightTitle.spans.isEmpty ? nil : Block.padded(rightTitle)
        let rightWidth = rightShown?.width ?? 0
        let showRight = rightShown != nil && rightWidth + 1 + min(left.width, Block.minimumTitleWidth) <= room
        let leftRoom = showRight ? room - rightWidth - 1 : room
        if left.width > leftRoom {
            // Cut before the closing space, which stays: ` A long ti… `.
            var open = left
            open.spans.removeLast()
            left = open.fitted(to: max(1, leftRoom - 1))
            left.append(" ", style: title.spans.last?.style ?? .plain)
        }
        if !title.spans.isEmpty { buffer.write(left, x: area.x + 2, y: area.y, maxWidth: leftRoom) }
        if showRight, let rightShown {
            buffer.write(rightShown, x: area.maxX - 2 - rightWidth, y: area.y, maxWidth: rightWidth)
        }
    }

    /// The line with a space either side, in its first and last span's styles.
    private static func padded(_ line: StyledLine) -> StyledLine {
        StyledLine([Span(" ", style: line.spans.first?.style ?? .plain)] + line.spans
                   + [Span(" ", style: line.spans.last?.style ?? .plain)])
    }
}

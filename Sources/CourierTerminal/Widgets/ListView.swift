/// A list of lines with a selection, scrolled so the selection is always visible. It asks for the lines
/// it shows only, so a list of 20,000 rows costs the same to draw as one of twenty.
public struct ListView {
    public var count: Int
    /// Line `index` (0-based); called only for visible rows.
    public var item: (Int) -> StyledLine
    /// The selected row is one bar of this style: its text keeps none of its own colours.
    public var selectionStyle: Style
    /// Drawn before each row: the marker on the selected row, spaces on the others.
    public var marker: String

    public init(count: Int, selectionStyle: Style = Style(attributes: .reverse), marker: String = "",
                item: @escaping (Int) -> StyledLine) {
        self.count = count
        self.item = item
        self.selectionStyle = selectionStyle
        self.marker = marker
    }

    /// A list over lines already in memory.
    public init(_ items: [StyledLine], selectionStyle: Style = Style(attributes: .reverse), marker: String = "") {
        self.init(count: items.count, selectionStyle: selectionStyle, marker: marker) { items[$0] }
    }

    /// Draws the visible rows of the list for `state` (the state is not changed).
    public func render(into buffer: inout Buffer, area: Rect, state: ListState) {
        guard !area.isEmpty else { return }
        let top = state.visibleOffset(height: area.height, count: count)
        let markerWidth = DisplayWidth.of(marker)
        for row in 0..<area.height {
            let index = top + row
            guard index < count else { break }
            let isSelected = index == state.selected
            var x = area.x
            if isSelected { buffer.fill(area.row(row), with: Cell(" ", style: selectionStyle)) }
            if markerWidth > 0 {
                let shown = isSelected ? marker : String(repeating: " ", count: markerWidth)
                x += buffer.write(shown, x: x, y: area.y + row, style: isSelected ? selectionStyle : .plain,
                                  maxWidth: area.width)
            }
            // A row too long for the list ends in `…`, so a cut name never reads as a whole one.
            let line = isSelected ? StyledLine(item(index).plainText, style: selectionStyle) : item(index)
            buffer.write(line.fitted(to: area.maxX - x), x: x, y: area.y + row, maxWidth: area.maxX - x)
        }
    }

    /// The item index at screen row `y` for a click, or nil.
    public func index(atRow y: Int, area: Rect, state: ListState) -> Int? {
        guard y >= area.y, y < area.maxY else { return nil }
        let index = state.visibleOffset(height: area.height, count: count) + y - area.y
        return index < count ? index : nil
    }
}

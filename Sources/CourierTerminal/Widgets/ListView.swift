/// A list of lines with a selection, scrolled so the selection is always visible.
public struct ListView: Sendable, Hashable {
    public var items: [StyledLine]
    public var selectionStyle: Style
    /// Drawn before each row: the marker on the selected row, spaces on the others.
    public var marker: String

    public init(_ items: [StyledLine], selectionStyle: Style = Style(attributes: .reverse), marker: String = "") {
        self.items = items
        self.selectionStyle = selectionStyle
        self.marker = marker
    }

    /// Draws the visible rows of the list for `state` (the state is not changed).
    public func render(into buffer: inout Buffer, area: Rect, state: ListState) {
        guard !area.isEmpty else { return }
        let top = state.visibleOffset(height: area.height, count: items.count)
        let markerWidth = DisplayWidth.of(marker)
        for row in 0..<area.height {
            let index = top + row
            guard index < items.count else { break }
            let isSelected = index == state.selected
            let base: Style = isSelected ? selectionStyle : .plain
            if isSelected { buffer.fill(area.row(row), with: Cell(" ", style: selectionStyle)) }
            var x = area.x
            if markerWidth > 0 {
                let shown = isSelected ? marker : String(repeating: " ", count: markerWidth)
                x += buffer.write(shown, x: x, y: area.y + row, style: base, maxWidth: area.width)
            }
            let line = isSelected ? items[index].highlighted(with: selectionStyle) : items[index]
            buffer.write(line, x: x, y: area.y + row, maxWidth: area.maxX - x)
        }
    }

    /// The item index at screen row `y` for a click, or nil.
    public func index(atRow y: Int, area: Rect, state: ListState) -> Int? {
        guard y >= area.y, y < area.maxY else { return nil }
        let index = state.visibleOffset(height: area.height, count: items.count) + y - area.y
        return index < items.count ? index : nil
    }
}

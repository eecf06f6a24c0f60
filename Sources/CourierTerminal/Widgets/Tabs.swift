/// A row of tab titles with the selected one highlighted: ` Query │ Headers │ Body `.
public struct Tabs: Widget, Sendable, Hashable {
    public var titles: [String]
    public var selected: Int
    public var style: Style
    public var selectedStyle: Style
    public var divider: String

    public init(_ titles: [String], selected: Int, style: Style = .plain,
                selectedStyle: Style = Style(attributes: [.reverse, .bold]), divider: String = "│") {
        self.titles = titles
        self.selected = selected
        self.style = style
        self.selectedStyle = selectedStyle
        self.divider = divider
    }

    /// Draws the titles on the first row of `area`.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var line = StyledLine()
        for (index, title) in titles.enumerated() {
            if index > 0 { line.append(divider, style: style) }
            line.append(" \(title) ", style: index == selected ? selectedStyle : style)
        }
        buffer.write(line, x: area.x, y: area.y, maxWidth: area.width)
    }

    /// The tab under column `x` of the first row, for a click.
    public func index(atColumn x: Int, area: Rect) -> Int? {
        var left = area.x
        for (index, title) in titles.enumerated() {
            if index > 0 { left += DisplayWidth.of(divider) }
            let width = DisplayWidth.of(title) + 2
            if x >= left, x < left + width { return index }
            left += width
        }
        return nil
    }
}

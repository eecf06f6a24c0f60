import CourierTerminal

/// The square border that the component panes (Response, Compare) draw around themselves when the
/// explorer hands them their whole area, with the title on the top edge.
enum PaneBorder {
    static func draw(into buffer: inout Buffer, area: Rect, title: String, theme: Theme, focused: Bool) {
        let style = focused ? theme.borderFocused : theme.border
        let horizontal = String(repeating: "─", count: area.width - 2)
        buffer.write("┌" + horizontal + "┐", x: area.x, y: area.y, style: style)
        buffer.write("└" + horizontal + "┘", x: area.x, y: area.maxY - 1, style: style)
        for y in (area.y + 1)..<(area.maxY - 1) {
            buffer.write("│", x: area.x, y: y, style: style)
            buffer.write("│", x: area.maxX - 1, y: y, style: style)
        }
        buffer.write(" \(title) ", x: area.x + 2, y: area.y, style: focused ? theme.titleFocused : theme.title,
                     maxWidth: area.width - 4)
    }
}

import CourierTerminal

/// Draws the row of pane tabs shown on small screens, where one pane is visible at a time.
enum TabStripView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        let theme = state.theme
        var x = area.x
        for pane in PaneID.allCases {
            let style = pane == state.focus ? theme.selection : theme.muted
            x += buffer.write(" \(pane.rawValue) \(pane.title) ", x: x, y: area.y, style: style, maxWidth: area.maxX - x)
        }
    }
}

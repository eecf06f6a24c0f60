import CourierTerminal

/// Draws the row of pane tabs shown on small screens, where one pane is visible at a time.
enum TabStripView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        let panes = state.panes.tiles.map(\.id)
        Tabs(panes.map { "\($0.rawValue) \($0.title)" }, selected: panes.firstIndex(of: state.focus) ?? -1,
             style: state.theme.muted, selectedStyle: state.theme.selection, divider: "").render(into: &buffer, area: area)
    }
}

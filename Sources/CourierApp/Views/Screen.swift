import CourierTerminal

/// The whole frame: panes by the layout, the status bar, and the modal on top. A pure function of state.
public enum Screen {
    /// Renders `state` into a new buffer and returns it with the cursor position (nil hides the cursor).
    public static func render(_ state: AppState) -> (buffer: Buffer, cursor: Position?) {
        var buffer = Buffer(size: state.size)
        let screen = Rect(size: state.size)
        if state.isTooSmall {
            let minimum = AppState.minimumSize
            let lines = ["Terminal too small", "\(state.size.width)×\(state.size.height), need \(minimum.width)×\(minimum.height)",
                         "q quits"]
            for (offset, line) in lines.enumerated() where offset < state.size.height {
                let width = DisplayWidth.of(line)
                buffer.write(line, x: max(0, (state.size.width - width) / 2),
                             y: max(0, state.size.height / 2 - 1) + offset, style: state.theme.warning)
            }
            return (buffer, nil)
        }
        let layout = state.layout
        var cursor: Position?
        for (pane, rect) in layout.panes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let focused = pane == state.focus && state.modals.isEmpty
            switch pane {
            case .collection: CollectionView.render(state, into: &buffer, area: rect, focused: focused)
            case .request:
                let position = RequestView.render(state, into: &buffer, area: rect, focused: focused)
                if focused { cursor = position }
            case .response:
                if state.viewerActive, let pane = state.responsePane {
                    pane.render(into: &buffer, area: rect, theme: state.theme, focused: focused)
                } else {
                    ResponseView.render(state, into: &buffer, area: rect, focused: focused)
                }
            case .log: LogView.render(state, into: &buffer, area: rect, focused: focused)
            case .webSocket: WebSocketView.render(state, into: &buffer, area: rect, focused: focused)
            }
        }
        if state.focus == .collection && state.tree.filtering && state.modals.isEmpty,
           let rect = layout.panes[.collection] {
            cursor = Position(x: rect.x + 2 + DisplayWidth.of(state.tree.filter.text), y: rect.y + 1)
        }
        if let strip = layout.tabStrip { TabStripView.render(state, into: &buffer, area: strip) }
        StatusBarView.render(state, into: &buffer, area: layout.statusBar)
        if let modal = state.modals.last {
            cursor = ModalView.render(modal, state: state, into: &buffer, screen: screen)
        }
        return (buffer, cursor)
    }
}

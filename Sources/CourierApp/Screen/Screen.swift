import CourierTerminal

/// The whole frame: the panes by the layout (each drawn by its `Pane`), an overlay over the layout, the status
/// bar, and the modal on top. A pure function of state.
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
            buffer.applyBase(state.theme.text)
            return (buffer, nil)
        }
        let layout = state.layout
        var cursor: Position?
        for (id, rect) in layout.panes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let context = state.renderContext(area: rect, focused: id == state.focus && state.modals.isEmpty)
            // An overlay open over the tile is drawn in its place.
            let position = state.panes.shown(on: id, in: state).draw(state, context, into: &buffer)
            if context.focused { cursor = position }
        }
        if let overlay = state.panes.layoutOverlay(in: state) {
            // Over the whole layout, above the status bar, like a zoomed pane.
            let area = Rect(x: 0, y: 0, width: state.size.width, height: layout.statusBar.y)
            buffer.fill(area)
            let context = state.renderContext(area: area, focused: state.modals.isEmpty)
            let position = overlay.draw(state, context, into: &buffer)
            if state.modals.isEmpty { cursor = position }
        } else if let strip = layout.tabStrip { TabStripView.render(state, into: &buffer, area: strip) }
        StatusBarView.render(state, into: &buffer, area: layout.statusBar)
        if let modal = state.modals.last {
            cursor = ModalView.render(modal, state: state, into: &buffer, screen: screen)
        }
        // The theme's own text colours, background included, wherever nothing else was drawn.
        buffer.applyBase(state.theme.text)
        return (buffer, cursor)
    }
}

extension AppState {
    /// What a pane is drawn with: the theme, the secrets the screen masks, the keys, the clock, focus and area.
    public func renderContext(area: Rect, focused: Bool) -> RenderContext {
        RenderContext(theme: theme, masker: screenMasker, keys: keys, now: now, focused: focused, area: area)
    }
}

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
                if var compare = state.comparePane {
                    compare.masker = state.screenMasker
                    compare.render(into: &buffer, area: rect, theme: state.theme, focused: focused, keys: state.keys)
                } else if state.viewerActive, let pane = state.responsePane {
                    pane.render(into: &buffer, area: rect, theme: state.theme, focused: focused, latency: state.shownLatency,
                                keys: state.keys)
                } else {
                    ResponsePhaseView.render(state, into: &buffer, area: rect, focused: focused)
                }
            case .log:
                // The log component draws its content; the border and title are the explorer's.
                let inner = Draw.block(&buffer, rect, title: state.log.title, focused: focused, theme: state.theme, number: 4)
                var log = state.log
                log.masker = state.screenMasker
                log.render(into: &buffer, area: inner, theme: state.theme, focused: focused, now: state.now)
            case .webSocket:
                var webSocket = state.webSocketPane
                webSocket.masker = state.screenMasker
                webSocket.render(into: &buffer, area: rect, theme: state.theme, focused: focused)
            }
        }
        if state.focus == .collection && state.tree.filtering && state.modals.isEmpty,
           let rect = layout.panes[.collection] {
            cursor = Position(x: rect.x + 2 + state.tree.filter.cursorColumn, y: rect.y + 1)
        }
        if var history = state.historyPane {
            history.masker = state.screenMasker
            // Over the whole layout, above the status bar, like a zoomed pane.
            let area = Rect(x: 0, y: 0, width: state.size.width, height: layout.statusBar.y)
            buffer.fill(area)
            let inner = Draw.block(&buffer, area, title: history.title, focused: state.modals.isEmpty, theme: state.theme)
            history.render(into: &buffer, area: inner, theme: state.theme, focused: state.modals.isEmpty)
            if state.modals.isEmpty { cursor = nil }
        } else if let strip = layout.tabStrip { TabStripView.render(state, into: &buffer, area: strip) }
        StatusBarView.render(state, into: &buffer, area: layout.statusBar)
        if let modal = state.modals.last {
            cursor = ModalView.render(modal, state: state, into: &buffer, screen: screen)
        }
        return (buffer, cursor)
    }
}

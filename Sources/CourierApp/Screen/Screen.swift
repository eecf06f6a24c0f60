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
            let context = state.renderContext(area: rect, focused: pane == state.focus && state.modals.isEmpty)
            let position: Position? = switch pane {
            case .collection: CollectionView.draw(state, context, into: &buffer)
            case .request: RequestView.draw(state, context, into: &buffer)
            case .response:
                if let compare = state.comparePane {
                    ComparePaneView.draw(compare, context, into: &buffer)
                } else if state.viewerActive, let pane = state.responsePane {
                    ResponsePaneView.draw(ShownResponse(pane, latency: state.shownLatency), context, into: &buffer)
                } else {
                    ResponsePhaseView.draw(state, context, into: &buffer)
                }
            case .log: LogPaneView.draw(state.log, context, into: &buffer)
            case .webSocket: WebSocketPaneView.draw(state.webSocketPane, context, into: &buffer)
            }
            if context.focused { cursor = position }
        }
        if let history = state.historyPane {
            // Over the whole layout, above the status bar, like a zoomed pane.
            let area = Rect(x: 0, y: 0, width: state.size.width, height: layout.statusBar.y)
            buffer.fill(area)
            HistoryPaneView.draw(history, state.renderContext(area: area, focused: state.modals.isEmpty), into: &buffer)
            if state.modals.isEmpty { cursor = nil }
        } else if let strip = layout.tabStrip { TabStripView.render(state, into: &buffer, area: strip) }
        StatusBarView.render(state, into: &buffer, area: layout.statusBar)
        if let modal = state.modals.last {
            cursor = ModalView.render(modal, state: state, into: &buffer, screen: screen)
        }
        return (buffer, cursor)
    }
}

extension AppState {
    /// What a pane is drawn with: the theme, the secrets the screen masks, the keys, the clock, focus and area.
    public func renderContext(area: Rect, focused: Bool) -> RenderContext {
        RenderContext(theme: theme, masker: screenMasker, keys: keys, now: now, focused: focused, area: area)
    }
}

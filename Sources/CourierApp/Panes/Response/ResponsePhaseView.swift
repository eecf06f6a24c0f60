import CourierTerminal

/// Draws the Response pane while the open request has no response to show: nothing sent yet, sending,
/// failed or cancelled. A response itself is always drawn by `ResponsePaneView`.
enum ResponsePhaseView: PaneView {
    static func frame(_ state: AppState, _ context: RenderContext) -> PaneFrame {
        PaneFrame("Response", number: PaneID.response.rawValue)
    }

    static func render(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        let (theme, keys, inner) = (context.theme, context.keys, context.area)
        switch state.response.phase {
        case .idle, .received:
            buffer.write("No response yet: \(keys.spelling(of: .global(.send))) sends the request.", x: inner.x, y: inner.y,
                         style: theme.muted, maxWidth: inner.width)
        case .sending(let method, let url):
            let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")[state.ticks % 10]
            buffer.write("\(spinner) \(method) \(state.screenURL(url))", x: inner.x, y: inner.y, style: theme.warning,
                         maxWidth: inner.width)
            buffer.write("\(keys.spelling(of: .global(.cancel))) cancels", x: inner.x, y: inner.y + 1, style: theme.muted,
                         maxWidth: inner.width)
        case .failed(let failure):
            for (i, line) in Draw.wrap("✗ " + context.masked(failure.message), width: inner.width).prefix(inner.height)
                .enumerated() {
                buffer.write(line, x: inner.x, y: inner.y + i, style: theme.error, maxWidth: inner.width)
            }
        case .cancelled:
            buffer.write("Cancelled.", x: inner.x, y: inner.y, style: theme.muted, maxWidth: inner.width)
        }
        return nil
    }
}

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
            var lines: [(String, Style)] = [("\(spinner) \(method) \(state.screenURL(url))", theme.warning)]
            // How it is getting on: time and attempt, the wait before the next attempt, the body arriving.
            if let flight = state.flight, flight.generation == state.session.generation {
                lines.append((flight.elapsedText(now: state.now), theme.text))
                if let retry = flight.retryText(now: state.now) { lines.append((retry, theme.warning)) }
                if let transfer = flight.transferText { lines.append((transfer, theme.text)) }
            }
            lines.append(("\(keys.spelling(of: .global(.cancel))) cancels", theme.muted))
            for (offset, (text, style)) in lines.prefix(inner.height).enumerated() {
                buffer.write(StyledLine(text, style: style).fitted(to: inner.width), x: inner.x, y: inner.y + offset,
                             maxWidth: inner.width)
            }
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

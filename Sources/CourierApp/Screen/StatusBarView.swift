import CourierTerminal

/// Draws the bottom row: a message or the focused pane's key hints, then the environment and theme.
enum StatusBarView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        let theme = state.theme
        buffer.fill(area, with: Cell(" ", style: theme.statusBar))
        // Said for as long as it is true: known secrets are drawn as they are.
        let shown = state.secretsShown ? "secrets shown · " : ""
        let right = " \(shown)env: \(state.environment ?? "none") · \(state.theme.name) "
        let rightWidth = DisplayWidth.of(right)
        let leftWidth = area.width - (area.width > rightWidth + 30 ? rightWidth : 0)
        if let message = state.status {
            let style: Style = switch message.kind {
            case .info: theme.statusBar
            case .success: theme.statusBar.fg(theme.success.foreground)
            case .error: theme.statusBar.fg(theme.error.foreground).with(.bold)
            }
            buffer.write(" " + message.text, x: area.x, y: area.y, style: style, maxWidth: leftWidth)
        } else {
            var runs: [(String, Style)] = [(" ", theme.statusBar)]
            // A request in flight is said first, so sending shows even when the response pane is hidden.
            if state.inFlight != nil, !state.live {
                runs += [("sending '\(state.editor.name)'…", theme.statusBar.with(.bold)), ("  ", theme.statusBar),
                         (state.keys.spelling(of: .global(.cancel)), theme.keyHint), (" cancel  ", theme.statusBar)]
            }
            var used = runs.reduce(0) { $0 + DisplayWidth.of($1.0) }
            // Only whole hints: one cut in the middle reads as a different key.
            for entry in HelpCatalog.hints(for: state) {
                let width = DisplayWidth.of(entry.keys) + DisplayWidth.of(entry.help) + 3
                guard used + width <= leftWidth else { break }
                runs.append((entry.keys, theme.keyHint))
                runs.append((" \(entry.help)  ", theme.statusBar))
                used += width
            }
            Draw.runs(&buffer, runs, x: area.x, y: area.y, maxWidth: leftWidth)
        }
        if leftWidth < area.width {
            buffer.write(right, x: area.maxX - rightWidth, y: area.y, style: theme.statusBar)
        }
    }
}

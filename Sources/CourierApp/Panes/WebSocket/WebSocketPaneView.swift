import CourierBody
import CourierHTTP
import CourierSecurity
import CourierTerminal
import Foundation

/// Draws the WebSocket pane: border with URL and state, status line, messages, saved messages, filter and
/// send box. Only the entries that fit are laid out, newest at the bottom, so a frame costs the same with
/// five messages kept or five thousand; each is masked as it is laid out.
public enum WebSocketPaneView: PaneView {
    public static func frame(_ state: WebSocketPaneState, _ context: RenderContext) -> PaneFrame {
        let (stateLabel, stateStyle) = state.connectionLabel(theme: context.theme)
        // The state matters more than the end of a long URL: the frame cuts the URL to leave room for it.
        let title = state.url.isEmpty ? state.title : "\(state.title) · \(context.masked(state.url))"
        return PaneFrame(title, number: PaneID.webSocket.rawValue, rightTitle: StyledLine(stateLabel, style: stateStyle))
    }

    @discardableResult
    public static func render(_ state: WebSocketPaneState, _ context: RenderContext, into buffer: inout Buffer)
        -> Position? {
        state.draw(context, into: &buffer)
        return nil
    }
}

extension WebSocketPaneState {
    /// Draws status line, messages, saved messages, filter and send box into `context.area`.
    fileprivate func draw(_ context: RenderContext, into buffer: inout Buffer) {
        let (inner, theme, masker) = (context.area, context.theme, context.masker)
        guard inner.width > 0, inner.height > 0 else { return }
        buffer.fill(inner)
        var bottom = inner.maxY
        let composeRows = mode == .composing ? min(4, max(1, sendBox.lines.count)) : 1
        if inner.height >= 4 {
            bottom -= composeRows
            drawSendBox(&buffer, area: Rect(x: inner.x, y: bottom, width: inner.width, height: composeRows), theme: theme)
        }
        if mode == .filtering || !filter.isEmpty, bottom - inner.y >= 3 {
            bottom -= 1
            drawFilter(&buffer, row: Rect(x: inner.x, y: bottom, width: inner.width, height: 1), theme: theme)
        }
        if !savedMessages.isEmpty, bottom - inner.y >= 3 {
            bottom -= 1
            drawSaved(&buffer, row: Rect(x: inner.x, y: bottom, width: inner.width, height: 1), theme: theme, masker: masker)
        }
        drawStatusLine(&buffer, row: Rect(x: inner.x, y: inner.y, width: inner.width, height: 1), theme: theme,
                       masker: masker)
        let messages = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, bottom - inner.y - 1))
        drawMessages(&buffer, area: messages, theme: theme, masker: masker)
    }

    /// The state as the border's right title shows it.
    func connectionLabel(theme: Theme) -> (String, Style) {
        switch connection {
        case .idle: return ("○ not connected", theme.muted)
        case .connecting(let attempt):
            return (attempt > 1 ? "◌ connecting (attempt \(attempt))" : "◌ connecting", theme.warning)
        case .open(let chosen): return ("● open" + (chosen.map { " · \($0)" } ?? ""), theme.success)
        case .reconnecting(let at, let attempt):
            let seconds = max(0, at.timeIntervalSince(now))
            return (String(format: "↻ reconnecting in %.1f s (attempt %d)", seconds, attempt), theme.warning)
        case .closed(let code, _, let byUser):
            return ("✕ closed \(code)", byUser || code == 1000 ? theme.muted : theme.error)
        }
    }

    private func drawStatusLine(_ buffer: inout Buffer, row: Rect, theme: Theme, masker: SecretMasker?) {
        var line = StyledLine()
        // What the user must know before the counters: why nothing connected, and a connection not verified.
        if let problem { line.append((masker?.mask(problem) ?? problem) + "  ", style: theme.error) }
        if unverifiedTLS { line.append("TLS not verified  ", style: theme.error) }
        line.append("↓ \(receivedCount) (\(WebSocketPaneFormat.size(bytesReceived)))", style: theme.text)
        line.append("  ↑ \(sentCount)", style: theme.text)
        if let rtt = lastRoundTrip { line.append("  rtt " + DurationText.format(seconds: rtt), style: theme.muted) }
        if droppedCount > 0 {
            line.append("  \(droppedCount) older dropped, last \(entries.count) kept", style: theme.muted)
        }
        let right: StyledLine = following
            ? StyledLine("following", style: theme.muted)
            : StyledLine("⏸ paused · \(unseenWhilePaused) new", style: theme.warning)
        let used = buffer.write(line, x: row.x, y: row.y, maxWidth: row.width)
        let rightWidth = right.width
        if used + 2 + rightWidth <= row.width {
            buffer.write(right, x: row.maxX - rightWidth, y: row.y, maxWidth: rightWidth)
        }
    }

    private func drawMessages(_ buffer: inout Buffer, area: Rect, theme: Theme, masker: SecretMasker?) {
        guard area.height > 0, let bottom = bottomIndex else {
            if area.height > 0 && entries.isEmpty {
                buffer.write(url.isEmpty ? "no WebSocket request selected" : "no messages yet", x: area.x, y: area.y,
                             style: theme.muted, maxWidth: area.width)
            }
            return
        }
        let filter = self.filter
        var blocks: [[StyledLine]] = []
        var total = 0
        var index = bottom
        while index >= 0 && total < area.height {
            let entry = entries[index]
            if entry.matches(filter, masker: masker) {
                let lines = self.lines(for: entry, width: area.width, theme: theme, masker: masker)
                blocks.append(lines)
                total += lines.count
            }
            index -= 1
        }
        if index < 0 && total < area.height && droppedCount > 0 {
            // The oldest kept message is on screen: say what came before it is gone.
            blocks.append([StyledLine("… \(droppedCount) older messages dropped (only the newest are kept; w saves them)",
                                      style: theme.muted)])
        }
        let lines = Array(blocks.reversed().joined().suffix(area.height))
        for (offset, line) in lines.enumerated() {
            buffer.write(line.fitted(to: area.width), x: area.x, y: area.y + offset, maxWidth: area.width)
        }
    }

    /// The lines one entry takes. Collapsed: one line (time, direction, size, the payload cut at the
    /// edge, JSON coloured). Expanded (the selected message while paused, or every message with `J`):
    /// pretty JSON, every text line, or a hex dump.
    func lines(for entry: WebSocketPaneEntry, width: Int, theme: Theme, masker: SecretMasker? = nil) -> [StyledLine] {
        // Masked as it is laid out: only the entries that fit are, and a reveal needs no re-reading.
        var entry = entry
        if let masker { entry.text = masker.mask(entry.text) }
        let selected = !following && entry.id == anchorID
        var header = StyledLine(WebSocketPaneFormat.time(entry.time, timeZone: timeZone),
                                style: selected ? theme.selection : theme.muted)
        header.append(" ")
        switch entry.kind {
        case .status:
            header.append("· " + entry.text, style: entry.isError ? theme.error : theme.muted)
            return [header]
        case .incoming: header.append("← ", style: theme.success)
        case .outgoing: header.append("→ ", style: theme.method(kind: .websocket, method: "GET"))
        }
        header.append(WebSocketPaneFormat.size(entry.size).padding(toLength: 8, withPad: " ", startingAt: 0),
                      style: theme.muted)
        if entry.isSubscription { header.append("★ ", style: theme.warning) }
        let expanded = prettyJSON || selected
        if entry.isBinary {
            guard expanded else {
                header.append("binary " + HexDump.pairs(entry.binaryPrefix.prefix(16)), style: theme.text)
                return [header]
            }
            header.append("binary", style: theme.muted)
            let limit = max(1, min(4, maxLinesPerMessage))
            let dump = HexDump(data: Data(entry.binaryPrefix))
            var lines = [header] + (0..<min(limit, dump.lineCount)).map { StyledLine("  " + dump.line($0), style: theme.text) }
            let shown = min(entry.binaryPrefix.count, limit * 16)
            if entry.size > shown { lines.append(StyledLine("  … \(entry.size - shown) more bytes", style: theme.muted)) }
            return lines
        }
        if WebSocketPaneFormat.looksLikeJSON(entry.text, validate: expanded) {
            let flat = WebSocketPaneFormat.prettyJSON(entry.text, theme: theme, limit: 1, oneLine: true).first
            if let flat, !expanded || header.width + flat.width <= width {
                return [StyledLine(header.spans + flat.spans)]
            }
            let pretty = WebSocketPaneFormat.prettyJSON(entry.text, theme: theme, limit: maxLinesPerMessage + 1)
            var lines = [header] + pretty.prefix(maxLinesPerMessage).map { StyledLine([Span("  ")] + $0.spans) }
            if pretty.count > maxLinesPerMessage { lines.append(StyledLine("  …", style: theme.muted)) }
            return lines
        }
        let textLines = entry.text.split(separator: "\n", omittingEmptySubsequences: false)
        header.append(String(textLines.first ?? ""), style: theme.text)
        guard expanded else {
            if textLines.count > 1 { header.append(" …", style: theme.muted) }
            return [header]
        }
        var lines = [header]
        for extra in textLines.dropFirst().prefix(maxLinesPerMessage - 1) {
            lines.append(StyledLine("  " + extra, style: theme.text))
        }
        if textLines.count > maxLinesPerMessage { lines.append(StyledLine("  …", style: theme.muted)) }
        return lines
    }

    private func drawSaved(_ buffer: inout Buffer, row: Rect, theme: Theme, masker: SecretMasker?) {
        var line = StyledLine("saved ", style: theme.muted)
        for (index, saved) in savedMessages.enumerated() {
            let label = (saved.isSubscription ? "★" : "") + "\(index + 1) "
                + Draw.fitted((masker?.mask(saved.text) ?? saved.text).replacingOccurrences(of: "\n", with: " "), width: 24)
            // A label that does not fit whole is not started: `…` says there are more.
            if line.width + DisplayWidth.of(label) + 3 > row.width - 1 {
                line.append("…", style: theme.muted)
                break
            }
            line.append(" \(label) ", style: index == selectedSaved ? theme.selection : theme.text)
            line.append(" ")
        }
        buffer.write(line, x: row.x, y: row.y, maxWidth: row.width)
    }

    private func drawFilter(_ buffer: inout Buffer, row: Rect, theme: Theme) {
        var line = StyledLine("/ ", style: theme.keyHint)
        line.append(filterEditor.text, style: theme.text)
        let used = buffer.write(line, x: row.x, y: row.y, maxWidth: row.width)
        if mode == .filtering {
            let cursorX = row.x + 2 + filterEditor.cursorColumn
            if cursorX < row.maxX && used <= row.width {
                buffer.setStyle(theme.text.with(.reverse), in: Rect(x: cursorX, y: row.y, width: 1, height: 1))
            }
        }
    }

    private func drawSendBox(_ buffer: inout Buffer, area: Rect, theme: Theme) {
        guard mode == .composing else {
            buffer.write("› i: write a message   /: filter   p: pause", x: area.x, y: area.y, style: theme.muted,
                         maxWidth: area.width)
            return
        }
        let top = max(0, sendBox.row - area.height + 1)
        for offset in 0..<area.height {
            let lineIndex = top + offset
            guard lineIndex < sendBox.lines.count else { break }
            let prefix = lineIndex == 0 ? "› " : "  "
            buffer.write(prefix, x: area.x, y: area.y + offset, style: theme.keyHint, maxWidth: area.width)
            buffer.write(String(sendBox.lines[lineIndex]), x: area.x + 2, y: area.y + offset, style: theme.text,
                         maxWidth: area.width - 2)
        }
        let cursorX = area.x + 2 + sendBox.cursorColumn
        let cursorY = area.y + sendBox.row - top
        if cursorX < area.maxX && cursorY < area.maxY {
            buffer.setStyle(theme.text.with(.reverse), in: Rect(x: cursorX, y: cursorY, width: 1, height: 1))
        }
    }
}

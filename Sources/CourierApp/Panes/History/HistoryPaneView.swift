import CourierBody
import CourierHistory
import CourierTerminal
import Foundation

/// Draws the history pane: a column header, one row per entry and the search box; or one entry; or a diff.
public enum HistoryPaneView: PaneView {
    public static func frame(_ state: HistoryPaneState, _ context: RenderContext) -> PaneFrame { PaneFrame(state.title) }

    @discardableResult
    public static func render(_ state: HistoryPaneState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        state.draw(context, into: &buffer)
        return nil
    }
}

extension HistoryPaneState {
    /// Column widths for a pane `width` cells wide.
    struct Columns {
        static let mark = 1, time = 14, method = 7, status = 6, duration = 8, size = 8, cache = 11
        var name: Int
        var showCache: Bool

        init(width: Int) {
            let fixed = Columns.mark + Columns.time + Columns.method + Columns.status + Columns.duration + Columns.size + 6
            showCache = width - fixed - Columns.cache - 1 >= 16
            // One column kept free at the right, so the last column never touches the border.
            name = max(4, width - fixed - 1 - (showCache ? Columns.cache + 1 : 0))
        }

        var timeX: Int { Columns.mark + 1 }
        var methodX: Int { timeX + Columns.time + 1 }
        var nameX: Int { methodX + Columns.method + 1 }
        var statusX: Int { nameX + name + 1 }
        var durationX: Int { statusX + Columns.status + 1 }
        var sizeX: Int { durationX + Columns.duration + 1 }
        var cacheX: Int { sizeX + Columns.size + 1 }
    }

    /// Draws the pane's content into `context.area`.
    fileprivate func draw(_ context: RenderContext, into buffer: inout Buffer) {
        let (area, theme) = (context.area, context.theme)
        guard !area.isEmpty else { return }
        buffer.fill(area, with: Cell(" ", style: theme.text))
        switch mode {
        case .entry(_, let lines, let scroll):
            TextView(lines: lines.map { StyledLine(context.masked($0), style: theme.text) })
                .render(into: &buffer, area: area, state: scroll)
        case .diff(let diff):
            diff.render(into: &buffer, area: area, theme: theme)
        case .list, .searching:
            renderList(into: &buffer, context)
        }
    }

    /// Where the cursor goes (in the search box while searching), for the app's terminal cursor.
    public func cursor(area: Rect) -> Position? {
        guard case .searching = mode, area.height > 0 else { return nil }
        return Position(x: min(area.maxX - 1, area.x + 1 + query.cursorColumn), y: area.maxY - 1)
    }

    private func renderList(into buffer: inout Buffer, _ context: RenderContext) {
        let (theme, focused) = (context.theme, context.focused)
        var body = context.area
        let searching: Bool = if case .searching = mode { true } else { false }
        if searching || !query.isEmpty, body.height >= 2 {
            let y = body.maxY - 1
            buffer.write("/", x: body.x, y: y, style: searching ? theme.keyHint : theme.muted)
            let shown = TextInput(query, style: theme.text)
            _ = shown.render(into: &buffer, area: Rect(x: body.x + 1, y: y, width: body.width - 1, height: 1))
            body = Rect(x: body.x, y: body.y, width: body.width, height: body.height - 1)
        }
        let visible = visible
        guard !visible.isEmpty else {
            let message = entries.isEmpty ? "Responses are kept here as requests are sent." : "No entry matches the search."
            buffer.write(message, x: body.x, y: body.y, style: theme.muted, maxWidth: body.width)
            return
        }
        let columns = Columns(width: body.width)
        if body.height >= 3 {
            renderHeader(into: &buffer, x: body.x, y: body.y, columns: columns, theme: theme)
            body = Rect(x: body.x, y: body.y + 1, width: body.width, height: body.height - 1)
        }
        let top = list.visibleOffset(height: body.height, count: visible.count)
        for line in 0..<body.height {
            let index = top + line
            guard index < visible.count else { break }
            let y = body.y + line
            renderRow(visible[index], into: &buffer, x: body.x, y: y, columns: columns, context: context)
            if focused && index == list.selected {
                for x in body.x..<body.maxX { buffer[x, y].style = buffer[x, y].style.overlaid(by: theme.selection) }
            }
        }
    }

    private func renderHeader(into buffer: inout Buffer, x: Int, y: Int, columns: Columns, theme: Theme) {
        let style = theme.muted
        buffer.write("time", x: x + columns.timeX, y: y, style: style)
        buffer.write("method", x: x + columns.methodX, y: y, style: style)
        buffer.write("request", x: x + columns.nameX, y: y, style: style, maxWidth: columns.name)
        buffer.write("status", x: x + columns.statusX, y: y, style: style)
        buffer.write(Self.right("total", Columns.duration), x: x + columns.durationX, y: y, style: style)
        buffer.write(Self.right("size", Columns.size), x: x + columns.sizeX, y: y, style: style)
        if columns.showCache { buffer.write("cache", x: x + columns.cacheX, y: y, style: style) }
    }

    private func renderRow(_ entry: HistoryEntry, into buffer: inout Buffer, x: Int, y: Int, columns: Columns,
                           context: RenderContext) {
        let theme = context.theme
        if marked.contains(entry.id) { buffer.write("●", x: x, y: y, style: theme.warning) }
        let clock = HistoryPaneFormat.clock(entry.date, zone: timeZone)
        buffer.write(clock.dropFirst(5), x: x + columns.timeX, y: y, style: theme.muted, maxWidth: Columns.time)
        // A kept WebSocket connection reads as the collection lists its request.
        let method = entry.request.method == "WEBSOCKET" ? "WS" : entry.request.method
        buffer.write(method, x: x + columns.methodX, y: y, style: theme.method(entry.request.method),
                     maxWidth: Columns.method)
        let label = HistoryPaneFormat.label(entry)
        buffer.write(Draw.fitted(context.masked(label), width: columns.name), x: x + columns.nameX, y: y,
                     style: theme.text, maxWidth: columns.name)
        if let response = entry.response {
            buffer.write("\(response.status)", x: x + columns.statusX, y: y, style: theme.status(response.status),
                         maxWidth: Columns.status)
        } else {
            buffer.write("error", x: x + columns.statusX, y: y, style: theme.error, maxWidth: Columns.status)
        }
        buffer.write(Self.right(HistoryPaneFormat.duration(entry), Columns.duration), x: x + columns.durationX, y: y,
                     style: theme.text, maxWidth: Columns.duration)
        buffer.write(Self.right(HistoryPaneFormat.size(entry), Columns.size), x: x + columns.sizeX, y: y,
                     style: theme.muted, maxWidth: Columns.size)
        if columns.showCache, let decision = entry.cacheDecision {
            buffer.write(decision, x: x + columns.cacheX, y: y, style: theme.cache(decision), maxWidth: Columns.cache)
        }
    }

    private static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

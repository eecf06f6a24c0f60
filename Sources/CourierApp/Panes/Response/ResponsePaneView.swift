import CourierBody
import CourierHTTP
import CourierTerminal
import Foundation
import CourierSecurity

/// Draws `ResponsePaneState`: the status line, the tab line, the visible body lines (only those are laid out
/// and coloured, known secrets masked as they are), and a bottom line for the prompt, a message or the
/// download progress.
public enum ResponsePaneView: PaneView {
    public static func frame(_ shown: ShownResponse, _ context: RenderContext) -> PaneFrame {
        PaneFrame(shown.pane.tab == .body ? "Response · body" : "Response · headers", number: PaneID.response.rawValue)
    }

    @discardableResult
    public static func render(_ shown: ShownResponse, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        let (state, inner, theme) = (shown.pane, context.area, context.theme)
        guard inner.width >= 4, inner.height >= 3 else { return nil }
        buffer.fill(inner)
        let used = drawStatus(state, into: &buffer, row: inner.row(0), theme: theme)
        shown.latency?.renderTrailing(into: &buffer, row: inner.row(0), used: used, theme: theme)
        let bodyArea = Rect(x: inner.x, y: inner.y + 2, width: inner.width, height: inner.height - 3)
        drawBody(state, into: &buffer, area: bodyArea, context: context)
        // After the body, so the line count includes what drawing it indexed.
        drawTabs(state, into: &buffer, row: inner.row(1), theme: theme)
        return drawBottom(state, into: &buffer, area: bodyArea, row: inner.row(inner.height - 1), theme: theme,
                          keys: context.keys)
    }

    // MARK: Parts

    /// Returns the columns used.
    @discardableResult
    private static func drawStatus(_ state: ResponsePaneState, into buffer: inout Buffer, row: Rect, theme: Theme) -> Int {
        var runs: [(String, Style)] = [(state.info.statusText, theme.status(state.info.status))]
        if let attempts = state.info.attempts, attempts > 1, let elapsed = state.info.elapsed {
            // A retried send took all its attempts and the waits between them, not its last attempt's time.
            let last = state.info.duration.map { ", last \(DurationText.format(seconds: $0))" } ?? ""
            runs.append((" · \(DurationText.format(seconds: elapsed)) in \(attempts) attempts\(last)", theme.text))
        } else if let duration = state.info.duration {
            runs.append((" · " + DurationText.format(seconds: duration), theme.text))
        }
        runs.append((" · " + MediaKind.formatTransferSize(decoded: state.body.byteCount, wire: state.info.wireBytes),
                     theme.text))
        if let decision = state.info.cacheDecision {
            runs.append((" · ", theme.text))
            runs.append((decision, theme.cache(decision)))
        }
        if state.media.isBinary { runs.append((" · " + state.media.summary(byteCount: state.body.byteCount), theme.muted)) }
        if let note = state.info.encodingNote { runs.append((" · " + note, theme.warning)) }
        if state.info.unverifiedTLS {
            runs.append((" · ", theme.text))
            runs.append(("TLS not verified", theme.error))
        }
        if let tests = state.info.tests {
            runs.append((" · ", theme.text))
            runs.append((tests, state.info.testsFailed ? theme.error : theme.success))
        }
        return write(runs, into: &buffer, row: row)
    }

    private static func drawTabs(_ state: ResponsePaneState, into buffer: inout Buffer, row: Rect, theme: Theme) {
        var runs: [(String, Style)] = [
            (" Body ", state.tab == .body ? theme.titleFocused.with(.reverse) : theme.muted), (" ", theme.text),
            (" Headers (\(state.info.headers.count)) ", state.tab == .headers ? theme.titleFocused.with(.reverse) : theme.muted),
            ("  ", theme.text),
        ]
        var mode: [String] = []
        if let filter = state.filter {
            let count = ResponsePaneState.grouped(filter.matches)
            mode.append("filter \(filter.expression) · \(count) match\(filter.matches == 1 ? "" : "es")")
        } else if state.diff != nil {
            mode.append("diff with previous")
        } else if state.tab == .body {
            mode.append(state.showsHex ? "hex" : state.showsPretty && state.pretty != nil ? "pretty" : "raw")
        }
        if state.wrap { mode.append("wrap") }
        if let search = state.search {
            let count = search.hits.count
            let position = state.currentHit.flatMap { search.hits.position(of: $0) }.map { "\($0 + 1)/" } ?? ""
            let progress = search.isFinished ? "" : String(format: " (searching %.0f%%)", search.progress * 100)
            mode.append("\(position)\(count) match\(count == 1 ? "" : "es")\(progress)")
        }
        runs.append((mode.joined(separator: " · "), theme.muted))
        let source = state.source
        let total = source.isComplete ? "\(source.lineCount)" : "\(source.lineCount)+"
        let position = " L\(state.cursor + 1)/\(total)"
        let room = row.width > position.count + 30 ? position.count : 0
        write(runs, into: &buffer, row: Rect(x: row.x, y: row.y, width: row.width - room, height: 1))
        if room > 0 { buffer.write(position, x: row.maxX - room, y: row.y, style: theme.muted) }
    }

    /// The bottom line: the prompt (returning where the terminal cursor goes), or what is under way, or a
    /// message, wrapped upward over the body's last rows when it is longer than the line (a JSONPath error).
    private static func drawBottom(_ state: ResponsePaneState, into buffer: inout Buffer, area: Rect, row: Rect,
                                   theme: Theme, keys: KeyTables) -> Position? {
        if let prompt = state.prompt {
            let used = write([(prompt.label, theme.keyHint)], into: &buffer, row: row)
            let field = Rect(x: row.x + used, y: row.y, width: row.width - used, height: 1)
            return TextInput(prompt.line.editor, style: theme.text, placeholder: placeholder(prompt),
                             placeholderStyle: theme.muted).render(into: &buffer, area: field)
        } else if let filtering = state.filterProgressText {
            write([(filtering, theme.warning)], into: &buffer, row: row)
        } else if let message = state.message {
            let lines = Draw.wrapWords(message, width: row.width).prefix(max(1, area.height / 2))
            for (offset, line) in lines.enumerated() {
                let y = row.y - lines.count + 1 + offset
                buffer.fill(Rect(x: row.x, y: y, width: row.width, height: 1))
                write([(line, theme.warning)], into: &buffer, row: Rect(x: row.x, y: y, width: row.width, height: 1))
            }
        } else if let streaming = state.streaming {
            write([(streaming.text(stopKey: keys.spelling(of: .global(.cancel))), theme.warning)], into: &buffer, row: row)
        } else if let failure = state.pretty?.failure, state.tab == .body, state.showsPretty, state.filter == nil, state.diff == nil {
            write([("Not valid JSON at byte \(failure.offset) (\(failure.reason)); the rest is shown as text", theme.error)],
                  into: &buffer, row: row)
        }
        return nil
    }

    // MARK: Body

    private static func drawBody(_ state: ResponsePaneState, into buffer: inout Buffer, area: Rect, context: RenderContext) {
        let (theme, keys, focused) = (context.theme, context.keys, context.focused)
        let source = state.lines(masker: context.masker)
        if state.tab == .body, state.media.isBinary, !state.showsHex {
            let (hex, save) = (keys.spelling(of: .responsePane(.toggleHex)), keys.spelling(of: .responsePane(.saveBody)))
            buffer.write("\(state.media.summary(byteCount: state.body.byteCount)): press \(hex) for hex, \(save) to save",
                         x: area.x, y: area.y, style: theme.muted, maxWidth: area.width)
            return
        }
        var y = area.y
        var row = state.scroll
        while y < area.maxY {
            let lineIndex = state.line(forRow: row)
            if lineIndex >= source.lineCount {
                if source.isComplete || source.indexMore() && lineIndex >= source.lineCount { break }
                continue
            }
            var line = source.coloredLine(lineIndex)
            if state.isFolded(lineIndex) { line = foldedLine(line, state: state, at: lineIndex) }
            let hits = state.search?.hits.onLine(lineIndex).map(\.columns) ?? []
            let current = state.currentHit?.line == lineIndex ? state.currentHit?.columns : nil
            let isCursor = focused && lineIndex == state.cursor
            let used = drawLine(line, hits: hits, current: current, cursor: isCursor, into: &buffer,
                                x: area.x, y: y, width: area.width, rows: state.wrap ? area.maxY - y : 1,
                                skip: state.wrap ? 0 : state.column, theme: theme)
            y += max(1, used)
            row += 1
        }
    }

    private static func foldedLine(_ line: ColoredLine, state: ResponsePaneState, at index: Int) -> ColoredLine {
        guard let fold = state.folds.first(where: { $0.lowerBound == index }) else { return line }
        let closing = line.text.hasSuffix("[") ? "]" : "}"
        var folded = line
        let note = " … \(closing)  (\(fold.count - 2) lines folded)"
        folded.spans.append(ColoredLine.Span(line.text.count..<line.text.count + note.count, .muted))
        folded.text += note
        return folded
    }

    /// Draws one line from character `skip`, wrapping over up to `rows` rows; returns the rows used.
    private static func drawLine(_ line: ColoredLine, hits: [Range<Int>], current: Range<Int>?, cursor: Bool,
                                 into buffer: inout Buffer, x: Int, y: Int, width: Int, rows: Int, skip: Int,
                                 theme: Theme) -> Int {
        var column = 0, row = 0
        var spanIndex = 0
        // A background of its own under the syntax colours: the selection's would hide them.
        let cursorStyle = theme.cursorLine
        if cursor { buffer.setStyle(cursorStyle, in: Rect(x: x, y: y, width: width, height: 1)) }
        for (offset, character) in line.text.enumerated() {
            if offset < skip { continue }
            while spanIndex < line.spans.count, line.spans[spanIndex].range.upperBound <= offset { spanIndex += 1 }
            let role = spanIndex < line.spans.count && line.spans[spanIndex].range.contains(offset) ? line.spans[spanIndex].role : .text
            var style = theme.style(for: role)
            if cursor { style = style.overlaid(by: cursorStyle) }
            if let current, current.contains(offset) { style = theme.searchCurrent }
            else if hits.contains(where: { $0.contains(offset) }) { style = theme.searchMatch }
            let visible = Sanitizer.sanitize(String(character))
            let characterWidth = max(1, DisplayWidth.of(visible))
            if column + characterWidth > width {
                row += 1
                column = 0
                if row >= rows { return rows }
                if cursor { buffer.setStyle(cursorStyle, in: Rect(x: x, y: y + row, width: width, height: 1)) }
            }
            column += buffer.write(visible, x: x + column, y: y + row, style: style, maxWidth: width - column)
        }
        return row + 1
    }

    /// Writes `runs` on `row`, ending in `…` when they do not fit; returns the columns used.
    @discardableResult
    private static func write(_ runs: [(String, Style)], into buffer: inout Buffer, row: Rect) -> Int {
        var line = StyledLine()
        for (text, style) in runs { line.append(text, style: style) }
        return buffer.write(line.fitted(to: row.width), x: row.x, y: row.y, maxWidth: row.width)
    }

    /// What an empty prompt says it takes.
    private static func placeholder(_ prompt: ResponsePanePrompt) -> String {
        switch prompt.kind {
        case .search: "text, or /regex/ (↑ earlier searches)"
        case .filter: "$.users[?(@.age > 30)].name (↑ earlier filters)"
        case .goToLine: "a line number"
        }
    }
}

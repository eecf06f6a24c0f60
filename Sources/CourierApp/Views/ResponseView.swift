import CourierHTTP
import CourierTerminal

/// Draws the response: a status line, the body or headers, scrolled.
enum ResponseView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect, focused: Bool) {
        let theme = state.theme
        let response = state.response
        let title = response.tab == .body ? "Response · body" : "Response · headers"
        let inner = Draw.block(&buffer, area, title: title, focused: focused, theme: theme, number: 3)
        guard !inner.isEmpty else { return }
        switch response.phase {
        case .idle:
            buffer.write("No response yet: Enter sends the request.", x: inner.x, y: inner.y, style: theme.muted,
                         maxWidth: inner.width)
        case .sending(let method, let url):
            let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")[state.ticks % 10]
            buffer.write("\(spinner) \(method) \(url)", x: inner.x, y: inner.y, style: theme.warning, maxWidth: inner.width)
            buffer.write("Ctrl-C cancels", x: inner.x, y: inner.y + 1, style: theme.muted, maxWidth: inner.width)
        case .failed(let failure):
            for (i, line) in Draw.wrap("✗ \(failure.message)", width: inner.width).prefix(inner.height).enumerated() {
                buffer.write(line, x: inner.x, y: inner.y + i, style: theme.error, maxWidth: inner.width)
            }
        case .cancelled:
            buffer.write("Cancelled.", x: inner.x, y: inner.y, style: theme.muted, maxWidth: inner.width)
        case .received(let summary):
            renderSummary(summary, state: state, into: &buffer, area: inner)
        }
    }

    private static func renderSummary(_ summary: ResponseSummary, state: AppState, into buffer: inout Buffer,
                                      area: Rect) {
        let theme = state.theme
        let reason = summary.reason.isEmpty ? "" : " \(summary.reason)"
        let used = Draw.runs(&buffer, [
            ("\(summary.status)\(reason)", theme.status(summary.status)),
            ("  \(Draw.duration(summary.duration))  \(Draw.bytes(summary.size))  ", theme.muted),
            ("cache: ", theme.muted), (summary.cache.rawValue, theme.cache(summary.cache.rawValue)),
            (summary.tests.map { "  " + $0 } ?? "",
             summary.tests?.contains("failed") == true ? theme.error : theme.success),
        ], x: area.x, y: area.y, maxWidth: area.width)
        state.shownLatency?.renderTrailing(into: &buffer, row: area.row(0), used: used, theme: theme)
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        let lines = state.response.lines
        guard !body.isEmpty else { return }
        if lines.isEmpty {
            let empty = state.response.tab == .body ? "(empty body)" : "(no headers)"
            buffer.write(empty, x: body.x, y: body.y, style: theme.muted, maxWidth: body.width)
            return
        }
        var y = body.y
        let colour = state.response.tab == .body && summary.isJSON
        for line in lines[min(state.response.scroll, lines.count - 1)...] {
            guard y < body.maxY else { break }
            let pieces = state.response.wrap ? Draw.wrap(line, width: body.width) : [line]
            for piece in pieces where y < body.maxY {
                if colour {
                    Draw.runs(&buffer, JSONColouring.runs(piece, theme: theme), x: body.x, y: y, maxWidth: body.width)
                } else if state.response.tab == .headers, let colon = piece.firstIndex(of: ":") {
                    Draw.runs(&buffer, [(String(piece[..<colon]), theme.jsonKey), (String(piece[colon...]), theme.text)],
                              x: body.x, y: y, maxWidth: body.width)
                } else {
                    buffer.write(piece, x: body.x, y: y, style: theme.text, maxWidth: body.width)
                }
                y += 1
            }
        }
    }
}

/// Colours one line of pretty-printed JSON: keys, strings, numbers, literals and punctuation.
enum JSONColouring {
    static func runs(_ line: String, theme: Theme) -> [(String, Style)] {
        var runs: [(String, Style)] = []
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                var end = index + 1
                while end < characters.count && characters[end] != "\"" {
                    end += characters[end] == "\\" ? 2 : 1
                }
                end = min(end + 1, characters.count)
                var next = end
                while next < characters.count && characters[next] == " " { next += 1 }
                let isKey = next < characters.count && characters[next] == ":"
                runs.append((String(characters[index..<end]), isKey ? theme.jsonKey : theme.jsonString))
                index = end
            } else if character.isNumber || character == "-" {
                var end = index
                while end < characters.count && (characters[end].isNumber || "-+.eE".contains(characters[end])) { end += 1 }
                runs.append((String(characters[index..<end]), theme.jsonNumber))
                index = end
            } else if character.isLetter {
                var end = index
                while end < characters.count && characters[end].isLetter { end += 1 }
                runs.append((String(characters[index..<end]), theme.jsonLiteral))
                index = end
            } else {
                runs.append((String(character), "{}[],:".contains(character) ? theme.jsonPunctuation : theme.text))
                index += 1
            }
        }
        return runs
    }
}

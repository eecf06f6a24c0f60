import CourierSecurity
import CourierCollections
import CourierHTTP
import CourierTerminal

/// Draws the request editor: method and URL, the tab row, and the selected tab's field.
enum RequestView: PaneView {
    static func frame(_ state: AppState, _ context: RenderContext) -> PaneFrame {
        let editor = state.editor
        var title = "Request"
        if !editor.name.isEmpty { title += " · \(editor.name)" }
        if editor.isDirty { title += " ●" }
        if state.live { title += " · LIVE" }
        // `v` shows values instead of variables: said, so the URL is not taken for what the file has.
        if editor.showResolved { title += " · resolved (v)" }
        // The environment only beside the whole title: the request's name matters more.
        let environment = "env: \(state.environment ?? "none")"
        let fits = context.area.width > DisplayWidth.of(title) + DisplayWidth.of(environment) + 12
        return PaneFrame(title, number: PaneID.request.rawValue,
                         rightTitle: fits ? StyledLine(environment, style: context.theme.muted) : StyledLine())
    }

    /// Draws the pane and returns where the terminal cursor goes when a field is being edited.
    static func render(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        let theme = context.theme
        let editor = state.editor
        let focused = context.focused
        var inner = context.area
        if editor.isEmpty {
            buffer.write("Open a request from the collection (1, Enter).", x: inner.x, y: inner.y, style: theme.muted,
                         maxWidth: inner.width)
            return nil
        }
        var cursor: Position?
        let values = state.variables
        if let cookies = state.requestCookies, cookies.request == editor.name, !cookies.lines.isEmpty, inner.height >= 5 {
            // The jar's cookies that went with this request, on the pane's last row.
            inner.height -= 1
            Draw.runs(&buffer, [("Cookies from the jar: ", theme.muted),
                                (Sanitizer.sanitize(cookies.lines.joined(separator: "; ")), theme.text)],
                      x: inner.x, y: inner.maxY, maxWidth: inner.width)
        }
        // Method and URL.
        let method = RequestDraft.methodLabel(kind: editor.kind, method: editor.method)
        let methodWidth = Draw.runs(&buffer, [(method, theme.method(kind: editor.kind, method: editor.method)),
                                              (" ", theme.text)],
                                    x: inner.x, y: inner.y, maxWidth: inner.width)
        let urlWidth = inner.width - methodWidth
        let urlSelected = editor.field == .url
        let urlEditing = editor.editing && urlSelected && focused
        if focused && urlSelected && !editor.editing {
            buffer.setStyle(theme.selection, in: Rect(x: inner.x, y: inner.y, width: methodWidth - 1, height: 1))
        }
        let url = template(lines: [editor.url.characters], row: 0, column: editor.url.cursor, editing: urlEditing,
                           resolved: editor.showResolved, values: values, theme: theme)
        cursor = url.render(into: &buffer, area: Rect(x: inner.x + methodWidth, y: inner.y, width: urlWidth, height: 1))
        guard inner.height >= 3 else { return cursor }
        // Tabs.
        var x = inner.x
        for tab in RequestEditorState.Tab.allCases {
            let selected = tab == editor.tab
            var style = selected ? theme.titleFocused : theme.muted
            if selected && focused && editor.field == .tab && !editor.editing { style = theme.selection }
            // A count says a tab has something in it before it is opened, as the response's `Headers (4)` does.
            let count = editor.count(of: tab).flatMap { $0 > 0 ? " (\($0))" : nil } ?? ""
            x += buffer.write(" \(tab.title)\(count) ", x: x, y: inner.y + 1, style: style, maxWidth: inner.maxX - x)
        }
        let content = Rect(x: inner.x, y: inner.y + 2, width: inner.width, height: inner.height - 2)
        if editor.tab == .options {
            renderOptions(state, into: &buffer, area: content, focused: focused, theme: theme)
            if editor.editing && editor.field == .tab, let field = editor.selectedEditor, focused {
                let row = editor.option.rawValue
                cursor = Position(x: content.x + 14 + field.cursorColumn, y: content.y + row)
            }
            return cursor
        }
        // The auth tab is a one-line field: draw it as a text area of one line.
        let field: (lines: [[Character]], row: Int, column: Int) = switch editor.tab {
        case .query: (editor.query.lines, editor.query.row, editor.query.column)
        case .headers: (editor.headers.lines, editor.headers.row, editor.headers.column)
        case .body: (editor.body.lines, editor.body.row, editor.body.column)
        default: ([editor.auth.characters], 0, editor.auth.cursor)
        }
        let editing = editor.editing && editor.field == .tab && focused
        if field.lines == [[]] && !editing {
            buffer.write(placeholder(editor.tab), x: content.x, y: content.y, style: theme.muted, maxWidth: content.width)
            return cursor
        }
        guard !editing else {
            let area = template(lines: field.lines, row: field.row, column: field.column, editing: true,
                                resolved: editor.showResolved, values: values, theme: theme)
            return area.render(into: &buffer, area: content) ?? cursor
        }
        // Not being edited, a field shows from its first line (a body's opening brace included), however the
        // cursor was left, and says how much is below rather than cutting it off silently.
        let hidden = field.lines.count - content.height
        let shown = hidden > 0 && content.height >= 2 ? Array(field.lines.prefix(content.height - 1)) : field.lines
        let area = template(lines: shown, row: 0, column: 0, editing: false, resolved: editor.showResolved,
                            values: values, theme: theme)
        area.render(into: &buffer, area: content)
        if shown.count < field.lines.count {
            let more = field.lines.count - shown.count
            buffer.write("… \(more) more line\(more == 1 ? "" : "s"): e to edit", x: content.x, y: content.maxY - 1,
                         style: theme.muted, maxWidth: content.width)
        }
        return cursor
    }

    static func placeholder(_ tab: RequestEditorState.Tab) -> String {
        switch tab {
        case .query: "No query parameters: e to add name=value lines"
        case .headers: "No headers: e to add Name: value lines"
        case .body: "No body: e to write one"
        case .auth: "No Authorization: e to set one (Bearer {{token}})"
        case .options: ""
        }
    }

    private static func renderOptions(_ state: AppState, into buffer: inout Buffer, area: Rect, focused: Bool,
                                      theme: Theme) {
        let editor = state.editor
        for option in RequestEditorState.Option.allCases where option.rawValue < area.height {
            let y = area.y + option.rawValue
            let selected = editor.field == .tab && editor.option == option && focused
            let label = option.title.padding(toLength: 14, withPad: " ", startingAt: 0)
            buffer.write(label, x: area.x, y: y, style: selected && !editor.editing ? theme.selection : theme.muted)
            let value: String = switch option {
            case .timeout: editor.timeout.text.isEmpty ? "default" : editor.timeout.text
            case .retries: editor.retries.text.isEmpty ? "default" : editor.retries.text
            case .cacheMode: editor.cacheMode.rawValue + (selected ? "   (e cycles)" : "")
            }
            buffer.write(value, x: area.x + 14, y: y, style: theme.text, maxWidth: area.width - 14)
        }
    }

    /// A template field as a text area: its variables coloured (unknown ones as errors), or shown resolved when
    /// asked and not being edited.
    static func template(lines: [[Character]], row: Int, column: Int, editing: Bool, resolved: Bool,
                         values: [String: String], theme: Theme) -> TextArea {
        TextArea(lines: lines, row: row, column: column, showsCursor: editing) { text in
            // Resolved, each known variable's value stands in its colour; an unknown one stays as written, in
            // the error colour either way, so it cannot pass for a value.
            let showsValues = resolved && !editing
            var line = StyledLine()
            for segment in VariablePreview.segments(text) {
                switch segment {
                case .text(let literal): line.append(literal, style: theme.text)
                case .variable(let name) where !VariablePreview.isKnown(name, values: values):
                    line.append("{{\(name)}}", style: theme.error.with(.underline))
                case .variable(let name) where showsValues:
                    line.append(VariablePreview.resolve("{{\(name)}}", values: values), style: theme.jsonString)
                case .variable(let name):
                    line.append("{{\(name)}}", style: theme.jsonKey)
                }
            }
            return line
        }
    }
}

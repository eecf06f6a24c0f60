import CourierTerminal

/// Draws the collection tree: its filter line, then the rows that fit.
enum CollectionView: PaneView {
    static func frame(_ state: AppState, _ context: RenderContext) -> PaneFrame {
        let root = lastComponent(state.collection.root)
        // Only the first requests are in the tree yet: said first in the title, where neither a long list
        // nor a narrow pane hides it.
        if case .loadingRest = state.loading { return PaneFrame("Loading… · \(root)", number: PaneID.collection.rawValue) }
        return PaneFrame(state.collection.root.isEmpty ? "Collection" : "Collection · \(root)",
                         number: PaneID.collection.rawValue)
    }

    static func render(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        let theme = context.theme
        var inner = context.area
        // The filter's cursor, after its `/`.
        let cursor = context.focused && state.tree.filtering
            ? Position(x: inner.x + 1 + state.tree.filter.cursorColumn, y: inner.y) : nil
        switch state.loading {
        case .loading(let path):
            buffer.write("Loading \(path)…", x: inner.x, y: inner.y, style: theme.muted, maxWidth: inner.width)
            return cursor
        case .failed(let message):
            for (i, line) in Draw.wrap(message, width: inner.width).prefix(inner.height).enumerated() {
                buffer.write(line, x: inner.x, y: inner.y + i, style: theme.error, maxWidth: inner.width)
            }
            return cursor
        case .loaded, .loadingRest:
            break
        }
        let tree = state.tree
        if tree.filtering || !tree.filter.text.isEmpty {
            let used = Draw.runs(&buffer, [("/", theme.keyHint), (tree.filter.text, theme.text)], x: inner.x, y: inner.y,
                                 maxWidth: inner.width)
            if tree.filtering { buffer[inner.x + used, inner.y] = Cell("▏", style: theme.borderFocused) }
            inner = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        }
        let rows = tree.rows(state.collection)
        if rows.isEmpty {
            // A file that loaded no request says why here, wrapped, rather than only in a cut status line.
            if tree.filter.text.isEmpty, let problem = state.collection.problems.first {
                for (i, line) in Draw.wrap(problem.description, width: inner.width).prefix(inner.height).enumerated() {
                    buffer.write(line, x: inner.x, y: inner.y + i, style: theme.error, maxWidth: inner.width)
                }
                return cursor
            }
            let text = tree.filter.text.isEmpty ? "No requests in \(state.collection.root)" : "No request matches"
            buffer.write(text, x: inner.x, y: inner.y, style: theme.muted, maxWidth: inner.width)
            return cursor
        }
        let selection = min(max(tree.selection, 0), rows.count - 1)
        let list = ListState(selected: selection, offset: tree.scroll)
        let scroll = list.visibleOffset(height: inner.height, count: rows.count)
        let selectionStyle = context.focused ? theme.selection : theme.selection.with(.dim)
        ListView(count: rows.count, selectionStyle: selectionStyle) { index in
            line(rows[index], state: state, theme: theme)
        }.render(into: &buffer, area: inner, state: list)
        let below = rows.count - scroll
        if case .loadingRest = state.loading, below < inner.height {
            buffer.write("loading the rest…", x: inner.x, y: inner.y + below, style: theme.muted, maxWidth: inner.width)
        }
        return cursor
    }

    /// One row of the tree: a folder or file, a request with its method, or a problem.
    private static func line(_ row: CollectionTreeState.Row, state: AppState, theme: Theme) -> StyledLine {
        let indent = String(repeating: "  ", count: row.depth)
        switch row.kind {
        case .group(let key, let isFile):
            let open = state.tree.filter.text.isEmpty && state.tree.collapsed.contains(key) ? "▸ " : "▾ "
            return StyledLine(indent + open + row.label, style: isFile ? theme.text : theme.title.with(.bold))
        case .request(let ref):
            let method = row.method ?? ""
            let shown = RequestDraft.methodLabel(kind: row.requestKind, method: method)
            var line = StyledLine(indent, style: theme.text)
            // A column of 7; a longer word (OPTIONS, GRAPHQL) keeps a space before the name.
            line.append(shown.count < 7 ? shown.padding(toLength: 7, withPad: " ", startingAt: 0) : shown + " ",
                        style: theme.method(kind: row.requestKind, method: method))
            line.append(row.label, style: theme.text)
            // A request with unsaved edits, open or kept as a draft, is marked as the editor's title is.
            if state.drafts[ref] != nil || (state.editor.origin == ref && state.editor.isDirty) {
                line.append(" ●", style: theme.warning)
            }
            return line
        case .problem:
            return StyledLine(indent + row.label, style: theme.muted.with(.dim))
        }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

import CourierTerminal

/// Draws the collection tree.
enum CollectionView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect, focused: Bool) {
        let theme = state.theme
        var title = state.collection.root.isEmpty ? "Collection" : "Collection · \(lastComponent(state.collection.root))"
        // Only the first requests are in the tree yet: said first in the title, where neither a long list
        // nor a narrow pane hides it.
        if case .loadingRest = state.loading { title = "Loading… · \(lastComponent(state.collection.root))" }
        var inner = Draw.block(&buffer, area, title: title, focused: focused, theme: theme, number: 1)
        guard !inner.isEmpty else { return }
        switch state.loading {
        case .loading(let path):
            buffer.write("Loading \(path)…", x: inner.x, y: inner.y, style: theme.muted, maxWidth: inner.width)
            return
        case .failed(let message):
            for (i, line) in Draw.wrap(message, width: inner.width).prefix(inner.height).enumerated() {
                buffer.write(line, x: inner.x, y: inner.y + i, style: theme.error, maxWidth: inner.width)
            }
            return
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
            let text = tree.filter.text.isEmpty ? "No requests in \(state.collection.root)" : "No request matches"
            buffer.write(text, x: inner.x, y: inner.y, style: theme.muted, maxWidth: inner.width)
            return
        }
        let selection = min(max(tree.selection, 0), rows.count - 1)
        var scroll = min(tree.scroll, max(0, rows.count - inner.height))
        if selection < scroll { scroll = selection }
        if selection >= scroll + inner.height { scroll = selection - inner.height + 1 }
        for (offset, row) in rows[scroll..<min(rows.count, scroll + inner.height)].enumerated() {
            let y = inner.y + offset
            let index = scroll + offset
            let indent = String(repeating: "  ", count: row.depth)
            var runs: [(String, Style)]
            switch row.kind {
            case .group(let key, let isFile):
                let open = tree.filter.text.isEmpty && tree.collapsed.contains(key) ? "▸ " : "▾ "
                runs = [(indent + open + row.label, isFile ? theme.text : theme.title.with(.bold))]
            case .request(let ref):
                let method = row.method ?? ""
                let shown = RequestDraft.methodLabel(kind: row.requestKind, method: method)
                runs = [(indent, theme.text),
                        (shown.padding(toLength: 7, withPad: " ", startingAt: 0),
                         theme.method(kind: row.requestKind, method: method)),
                        (row.label, theme.text)]
                // A request with unsaved edits, open or kept as a draft, is marked as the editor's title is.
                if state.drafts[ref] != nil || (state.editor.origin == ref && state.editor.isDirty) {
                    runs.append((" ●", theme.warning))
                }
            case .problem:
                runs = [(indent + row.label, theme.muted.with(.dim))]
            }
            if index == selection {
                let style = focused ? theme.selection : theme.selection.with(.dim)
                Draw.highlightedRow(&buffer, runs.map(\.0).joined(), x: inner.x, y: y, width: inner.width, style: style)
            } else {
                Draw.runs(&buffer, runs, x: inner.x, y: y, maxWidth: inner.width)
            }
        }
        let below = rows.count - scroll
        if case .loadingRest = state.loading, below < inner.height {
            buffer.write("loading the rest…", x: inner.x, y: inner.y + below, style: theme.muted, maxWidth: inner.width)
        }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

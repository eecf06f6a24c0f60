import CourierBody

/// Folds and the mapping between lines of the source and rows on screen (a folded range shows as its
/// first line only).
extension ResponsePaneState {
    /// Folds the object or array opened on the cursor's line, or unfolds it when folded.
    mutating func toggleFold() {
        guard foldsApply, let pretty else { message = "Folding works on pretty JSON"; return }
        if let index = folds.firstIndex(where: { $0.lowerBound == cursor }) {
            folds.remove(at: index)
            return
        }
        guard let range = pretty.foldRange(at: cursor) else { message = "Nothing to fold on this line"; return }
        // A fold that contains earlier folds replaces them.
        folds.removeAll { range.contains($0.lowerBound) }
        folds.append(range)
        folds.sort { $0.lowerBound < $1.lowerBound }
        scrollToCursor()
    }

    /// Removes folds hiding `line` (so a search hit inside one is shown).
    mutating func unfold(containing line: Int) {
        guard foldsApply else { return }
        folds.removeAll { $0.lowerBound < line && $0.contains(line) }
    }

    /// Whether `line` starts a folded range.
    func isFolded(_ line: Int) -> Bool { foldsApply && folds.contains { $0.lowerBound == line } }

    private var activeFolds: [ClosedRange<Int>] { foldsApply ? folds : [] }

    /// The source line shown on visible row `row`.
    func line(forRow row: Int) -> Int {
        var line = row
        for fold in activeFolds {
            if fold.lowerBound < line { line += fold.count - 1 } else { break }
        }
        return line
    }

    /// The visible row of source line `line` (a hidden line maps to its fold's row).
    func row(forLine line: Int) -> Int {
        var row = line
        for fold in activeFolds where fold.lowerBound < line {
            row -= min(line, fold.upperBound) - fold.lowerBound
        }
        return row
    }

    /// The next visible line after `line`.
    func visibleLine(after line: Int) -> Int { self.line(forRow: row(forLine: line) + 1) }

    /// The previous visible line before `line`.
    func visibleLine(before line: Int) -> Int { self.line(forRow: max(0, row(forLine: line) - 1)) }

    /// Puts the cursor on `line` (clamped to the source) and scrolls to keep it in view.
    mutating func moveCursor(to line: Int) {
        let source = self.source
        if line >= source.lineCount && !source.isComplete { _ = source.indexMore() }
        cursor = max(0, min(line, max(0, source.lineCount - 1)))
        scrollToCursor()
    }

    /// Scrolls so the cursor's row is on screen.
    mutating func scrollToCursor() {
        let cursorRow = row(forLine: cursor)
        if cursorRow < scroll { scroll = cursorRow }
        if cursorRow >= scroll + max(1, pageSize) { scroll = cursorRow - max(1, pageSize) + 1 }
    }
}

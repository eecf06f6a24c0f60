/// The text of a multi-line field (a request body) and its cursor, with the same keys as
/// `LineEditor` plus Up/Down and Enter. Keeps its own scroll so the cursor stays in view.
public struct TextAreaEditor: TextEditing, Sendable, Hashable {
    public private(set) var lines: [[Character]]
    /// Cursor line and character index within it.
    public private(set) var row: Int
    public private(set) var column: Int
    /// The first line shown; updated by `scrollToCursor(height:)`.
    public var top: Int = 0
    /// The display column Up/Down aim for, so moving through a short line does not lose it.
    private var goalColumn: Int?
    private var history = UndoHistory<Snapshot>()

    /// An editor over `text` with the cursor at the start, or at the end of the last line when
    /// `cursorAtEnd` (a field opened to append to, like a request body).
    public init(_ text: String = "", cursorAtEnd: Bool = false) {
        lines = TextAreaEditor.splitLines(text)
        if lines.isEmpty { lines = [[]] }
        row = cursorAtEnd ? lines.count - 1 : 0
        column = cursorAtEnd ? lines[row].count : 0
    }

    /// The text, lines joined with `\n`.
    public var text: String { lines.map { String($0) }.joined(separator: "\n") }
    /// Display columns before the cursor on its line.
    public var cursorColumn: Int { lines[row][..<column].reduce(0) { $0 + DisplayWidth.of($1) } }

    // MARK: Cursor

    /// Moves one character left, to the end of the previous line at a line start.
    public mutating func moveLeft() {
        if column > 0 { column -= 1 } else if row > 0 { row -= 1; column = lines[row].count }
        settle()
    }

    /// Moves one character right, to the next line at a line end.
    public mutating func moveRight() {
        if column < lines[row].count { column += 1 } else if row + 1 < lines.count { row += 1; column = 0 }
        settle()
    }

    /// Moves one line up, keeping the display column.
    public mutating func moveUp() { moveVertically(-1) }
    /// Moves one line down, keeping the display column.
    public mutating func moveDown() { moveVertically(1) }
    /// Moves `count` lines (PgUp/PgDn).
    public mutating func moveLines(_ count: Int) { moveVertically(count) }
    /// Moves to the start of the line.
    public mutating func moveHome() { column = 0; settle() }
    /// Moves to the end of the line.
    public mutating func moveEnd() { column = lines[row].count; settle() }
    /// Moves to the start of the previous word; at a line start, to the end of the previous line.
    public mutating func moveWordLeft() {
        guard column > 0 else { moveLeft(); return }
        column = WordBoundary.left(of: column, in: lines[row])
        settle()
    }

    /// Moves past the next word; at a line end, to the start of the next line.
    public mutating func moveWordRight() {
        guard column < lines[row].count else { moveRight(); return }
        column = WordBoundary.right(of: column, in: lines[row])
        settle()
    }

    // MARK: Editing

    /// Inserts text at the cursor; newlines split lines.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        checkpoint(text.count == 1 && text != " " && !text.contains(where: \.isNewline) ? .typing : .other)
        insertRaw(text)
    }

    /// Pastes text as one undo step.
    public mutating func paste(_ text: String) {
        guard !text.isEmpty else { return }
        checkpoint(.other)
        insertRaw(text)
    }

    private mutating func insertRaw(_ text: String) {
        var pieces = TextAreaEditor.splitLines(text)
        let tail = Array(lines[row][column...])
        lines[row].removeSubrange(column...)
        lines[row].append(contentsOf: pieces.removeFirst())
        if pieces.isEmpty {
            column = lines[row].count
            lines[row].append(contentsOf: tail)
        } else {
            let last = pieces.removeLast()
            lines.insert(contentsOf: pieces + [last + tail], at: row + 1)
            row += pieces.count + 1
            column = last.count
        }
        goalColumn = nil
    }

    /// Splits the line at the cursor.
    public mutating func newline() { insert("\n") }

    /// Deletes before the cursor, joining with the previous line at a line start.
    public mutating func deleteBackward() {
        if column > 0 {
            checkpoint(.deleting)
            lines[row].remove(at: column - 1)
            column -= 1
        } else if row > 0 {
            checkpoint(.deleting)
            let line = lines.remove(at: row)
            row -= 1
            column = lines[row].count
            lines[row].append(contentsOf: line)
        }
        goalColumn = nil
    }

    /// Deletes under the cursor, joining the next line at a line end.
    public mutating func deleteForward() {
        if column < lines[row].count {
            checkpoint(.deleting)
            lines[row].remove(at: column)
        } else if row + 1 < lines.count {
            checkpoint(.deleting)
            lines[row].append(contentsOf: lines.remove(at: row + 1))
        }
    }

    /// Deletes back to the start of the previous word on the line.
    public mutating func deleteWordBackward() {
        let start = WordBoundary.left(of: column, in: lines[row])
        guard start < column else { deleteBackward(); return }
        checkpoint(.other)
        lines[row].removeSubrange(start..<column)
        column = start
    }

    /// Deletes to the end of the next word on the line (Alt-d).
    public mutating func deleteWordForward() {
        let end = WordBoundary.right(of: column, in: lines[row])
        guard end > column else { return }
        checkpoint(.other)
        lines[row].removeSubrange(column..<end)
    }

    /// Replaces the whole text, cursor at the end, as one undo step; the same text is not a step.
    public mutating func setText(_ text: String) {
        guard text != self.text else { return }
        checkpoint(.other)
        lines = TextAreaEditor.splitLines(text)
        if lines.isEmpty { lines = [[]] }
        row = lines.count - 1
        column = lines[row].count
        goalColumn = nil
    }

    /// Deletes to the end of the line, or joins the next line at a line end (Ctrl-K).
    public mutating func deleteToEnd() {
        guard column < lines[row].count else { deleteForward(); return }
        checkpoint(.other)
        lines[row].removeSubrange(column...)
    }

    /// Deletes from the line start to the cursor (Ctrl-U).
    public mutating func deleteToStart() {
        guard column > 0 else { return }
        checkpoint(.other)
        lines[row].removeSubrange(0..<column)
        column = 0
    }

    /// Undoes the last edit step.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let snapshot = history.undo(from: current) else { return false }
        restore(snapshot)
        return true
    }

    /// Redoes the last undone step.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let snapshot = history.redo(from: current) else { return false }
        restore(snapshot)
        return true
    }

    /// Keeps `top` so the cursor line is visible in `height` rows.
    public mutating func scrollToCursor(height: Int) {
        guard height > 0 else { return }
        if row < top { top = row } else if row >= top + height { top = row - height + 1 }
    }

    /// Applies an editing key; returns false for other keys.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        if key.code == .pageUp { moveLines(-10); return true }
        if key.code == .pageDown { moveLines(10); return true }
        guard let action = EditorKeys.action(for: key) else { return false }
        return perform(action)
    }

    /// Applies an editing action; every action has a meaning in a multi-line field.
    @discardableResult
    public mutating func perform(_ action: EditorAction) -> Bool {
        switch action {
        case .insert(let c): insert(String(c))
        case .left: moveLeft()
        case .right: moveRight()
        case .up: moveUp()
        case .down: moveDown()
        case .wordLeft: moveWordLeft()
        case .wordRight: moveWordRight()
        case .home: moveHome()
        case .end: moveEnd()
        case .deleteBackward: deleteBackward()
        case .deleteForward: deleteForward()
        case .deleteWordBackward: deleteWordBackward()
        case .deleteWordForward: deleteWordForward()
        case .deleteToStart: deleteToStart()
        case .deleteToEnd: deleteToEnd()
        case .undo: undo()
        case .redo: redo()
        case .newline: newline()
        }
        return true
    }

    // MARK: Internals

    private struct Snapshot: Sendable, Hashable {
        var lines: [[Character]]
        var row: Int
        var column: Int
    }

    /// Lines split at `\n`, `\r\n` or `\r`.
    static func splitLines(_ text: String) -> [[Character]] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { Array($0) }
    }

    private var current: Snapshot { Snapshot(lines: lines, row: row, column: column) }

    private mutating func restore(_ snapshot: Snapshot) {
        lines = snapshot.lines
        row = snapshot.row
        column = snapshot.column
        history.endRun()
        goalColumn = nil
    }

    private mutating func settle() {
        goalColumn = nil
        history.endRun()
    }

    private mutating func moveVertically(_ delta: Int) {
        let goal = goalColumn ?? cursorColumn
        row = min(max(0, row + delta), lines.count - 1)
        var width = 0
        column = 0
        while column < lines[row].count {
            let w = DisplayWidth.of(lines[row][column])
            if width + w > goal { break }
            width += w
            column += 1
        }
        goalColumn = goal
        history.endRun()
    }

    private mutating func checkpoint(_ kind: EditKind) { history.checkpoint(kind, current) }
}

import CourierTerminal

/// A line or multi-line text editor as a value: the text as lines of characters, a cursor, and an undo
/// stack. Cursor positions count characters (grapheme clusters), so wide characters move as one.
public struct TextEditor: Sendable, Hashable {
    public private(set) var lines: [[Character]]
    /// Row and column of the cursor, in characters.
    public private(set) var row: Int = 0
    public private(set) var column: Int = 0
    /// Whether Enter inserts a line break (a body) or is left to the caller (a URL).
    public let multiline: Bool
    private var undoStack: [Snapshot] = []
    /// Keeps a burst of typed characters as one undo step.
    private var lastEditWasTyping = false

    private struct Snapshot: Sendable, Hashable {
        var lines: [[Character]]
        var row: Int
        var column: Int
    }

    /// The most undo steps kept; older ones are dropped so a long session stays small.
    static let undoLimit = 200

    public init(_ text: String = "", multiline: Bool = false) {
        self.multiline = multiline
        let split = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        lines = multiline ? (split.isEmpty ? [[]] : split) : [Array(text.replacingOccurrences(of: "\n", with: " "))]
        row = lines.count - 1
        column = lines[row].count
    }

    /// The whole text, lines joined by newlines.
    public var text: String { lines.map { String($0) }.joined(separator: "\n") }

    /// Replaces the text, keeping the cursor at the end; the previous text can be undone.
    public mutating func setText(_ text: String) {
        guard text != self.text else { return }
        let replaced = TextEditor(text, multiline: multiline)
        pushUndo(typing: false)
        lines = replaced.lines
        row = replaced.row
        column = replaced.column
    }

    /// The display column of the cursor on its row (wide characters count two).
    public var cursorDisplayColumn: Int { DisplayWidth.of(String(lines[row][..<column])) }

    // MARK: - Editing

    /// Inserts typed or pasted text at the cursor. A paste with line breaks in a single-line editor
    /// joins them with spaces, so a pasted URL never splits.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        pushUndo(typing: text.count == 1 && text != " ")
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let pieces = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        if !multiline || pieces.count == 1 {
            let joined = Array(pieces.map { String($0) }.joined(separator: " "))
            lines[row].insert(contentsOf: joined, at: column)
            column += joined.count
            return
        }
        let tail = Array(lines[row][column...])
        lines[row].removeSubrange(column...)
        lines[row].append(contentsOf: pieces[0])
        var newLines = pieces.dropFirst().map { $0 }
        column = newLines[newLines.count - 1].count
        newLines[newLines.count - 1].append(contentsOf: tail)
        lines.insert(contentsOf: newLines, at: row + 1)
        row += newLines.count
    }

    /// Splits the line at the cursor (multi-line editors only).
    public mutating func newline() {
        guard multiline else { return }
        insert("\n")
    }

    /// Deletes the character before the cursor, joining lines at the start of one.
    public mutating func backspace() {
        if column > 0 {
            pushUndo(typing: true)
            lines[row].remove(at: column - 1)
            column -= 1
        } else if row > 0 {
            pushUndo(typing: false)
            let line = lines.remove(at: row)
            row -= 1
            column = lines[row].count
            lines[row].append(contentsOf: line)
        }
    }

    /// Deletes the character under the cursor, joining the next line at the end of one.
    public mutating func deleteForward() {
        if column < lines[row].count {
            pushUndo(typing: true)
            lines[row].remove(at: column)
        } else if row + 1 < lines.count {
            pushUndo(typing: false)
            let next = lines.remove(at: row + 1)
            lines[row].append(contentsOf: next)
        }
    }

    /// Deletes the word before the cursor (Ctrl-W, Alt-Backspace).
    public mutating func deleteWordBackward() {
        let start = wordStart(before: column, in: lines[row])
        guard start < column else { backspace(); return }
        pushUndo(typing: false)
        lines[row].removeSubrange(start..<column)
        column = start
    }

    /// Deletes from the cursor to the end of the line (Ctrl-K).
    public mutating func deleteToEnd() {
        guard column < lines[row].count else { return }
        pushUndo(typing: false)
        lines[row].removeSubrange(column...)
    }

    /// Restores the text before the last edit; returns false when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let snapshot = undoStack.popLast() else { return false }
        lines = snapshot.lines
        row = snapshot.row
        column = snapshot.column
        lastEditWasTyping = false
        return true
    }

    // MARK: - Movement

    public mutating func moveLeft() {
        lastEditWasTyping = false
        if column > 0 { column -= 1 } else if row > 0 { row -= 1; column = lines[row].count }
    }

    public mutating func moveRight() {
        lastEditWasTyping = false
        if column < lines[row].count { column += 1 } else if row + 1 < lines.count { row += 1; column = 0 }
    }

    /// Moves up one line; returns false on the first line so the caller can move focus instead.
    @discardableResult
    public mutating func moveUp() -> Bool {
        lastEditWasTyping = false
        guard row > 0 else { return false }
        row -= 1
        column = min(column, lines[row].count)
        return true
    }

    /// Moves down one line; returns false on the last line.
    @discardableResult
    public mutating func moveDown() -> Bool {
        lastEditWasTyping = false
        guard row + 1 < lines.count else { return false }
        row += 1
        column = min(column, lines[row].count)
        return true
    }

    public mutating func moveHome() { lastEditWasTyping = false; column = 0 }
    public mutating func moveEnd() { lastEditWasTyping = false; column = lines[row].count }

    public mutating func moveWordLeft() {
        lastEditWasTyping = false
        if column == 0 { moveLeft(); return }
        column = wordStart(before: column, in: lines[row])
    }

    public mutating func moveWordRight() {
        lastEditWasTyping = false
        let line = lines[row]
        if column == line.count { moveRight(); return }
        var index = column
        while index < line.count, !Self.isWordCharacter(line[index]) { index += 1 }
        while index < line.count, Self.isWordCharacter(line[index]) { index += 1 }
        column = index
    }

    // MARK: - Private

    private func wordStart(before position: Int, in line: [Character]) -> Int {
        var index = position
        while index > 0, !Self.isWordCharacter(line[index - 1]) { index -= 1 }
        while index > 0, Self.isWordCharacter(line[index - 1]) { index -= 1 }
        return index
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private mutating func pushUndo(typing: Bool) {
        defer { lastEditWasTyping = typing }
        if typing && lastEditWasTyping { return }
        undoStack.append(Snapshot(lines: lines, row: row, column: column))
        if undoStack.count > Self.undoLimit { undoStack.removeFirst(undoStack.count - Self.undoLimit) }
    }
}

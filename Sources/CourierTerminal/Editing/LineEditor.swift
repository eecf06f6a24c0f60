/// The text of a one-line field and its cursor: what the URL, header and query fields edit.
/// Positions count characters (grapheme clusters), so a wide character or an emoji is one step.
public struct LineEditor: TextEditing, Sendable, Hashable {
    public private(set) var characters: [Character]
    /// The cursor, 0…count: before the character at this index.
    public private(set) var cursor: Int
    private var history = UndoHistory<Snapshot>()

    /// How many undo steps are kept; older ones are dropped.
    public static let undoLimit = 200

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text being edited.
    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }
    /// The display columns before the cursor: where the terminal cursor goes.
    public var cursorColumn: Int { characters[..<cursor].reduce(0) { $0 + DisplayWidth.of($1) } }
    public var canUndo: Bool { history.canUndo }

    // MARK: Cursor

    /// Moves one character left.
    public mutating func moveLeft() { cursor = max(0, cursor - 1); history.endRun() }
    /// Moves one character right.
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1); history.endRun() }
    /// Moves to the start.
    public mutating func moveHome() { cursor = 0; history.endRun() }
    /// Moves to the end.
    public mutating func moveEnd() { cursor = characters.count; history.endRun() }
    /// Moves to the start of the word before the cursor.
    public mutating func moveWordLeft() { cursor = WordBoundary.left(of: cursor, in: characters); history.endRun() }
    /// Moves past the end of the word after the cursor.
    public mutating func moveWordRight() { cursor = WordBoundary.right(of: cursor, in: characters); history.endRun() }
    /// Puts the cursor at `index`, clamped.
    public mutating func setCursor(_ index: Int) { cursor = min(max(0, index), characters.count); history.endRun() }

    // MARK: Editing

    /// Inserts `text` at the cursor. A run of typed characters is undone as one step.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        let typing = text.count == 1 && text != " "
        checkpoint(typing ? .typing : .other)
        characters.insert(contentsOf: text, at: cursor)
        cursor += text.count
    }

    /// Inserts pasted text as one undo step; line breaks become spaces in a one-line field.
    public mutating func paste(_ text: String) {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        guard !flat.isEmpty else { return }
        checkpoint(.other)
        characters.insert(contentsOf: flat, at: cursor)
        cursor += flat.count
    }

    /// Deletes the character before the cursor.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        checkpoint(.deleting)
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        checkpoint(.deleting)
        characters.remove(at: cursor)
    }

    /// Deletes back to the start of the previous word (Ctrl-W, Alt-Backspace).
    public mutating func deleteWordBackward() {
        let start = WordBoundary.left(of: cursor, in: characters)
        guard start < cursor else { return }
        checkpoint(.other)
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Deletes to the end of the next word (Alt-d).
    public mutating func deleteWordForward() {
        let end = WordBoundary.right(of: cursor, in: characters)
        guard end > cursor else { return }
        checkpoint(.other)
        characters.removeSubrange(cursor..<end)
    }

    /// Deletes from the start to the cursor (Ctrl-U).
    public mutating func deleteToStart() {
        guard cursor > 0 else { return }
        checkpoint(.other)
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Deletes from the cursor to the end (Ctrl-K).
    public mutating func deleteToEnd() {
        guard cursor < characters.count else { return }
        checkpoint(.other)
        characters.removeSubrange(cursor...)
    }

    /// Replaces the whole text (cursor at the end), as one undo step; the same text is not a step.
    public mutating func setText(_ text: String) {
        guard text != self.text else { return }
        checkpoint(.other)
        characters = Array(text)
        cursor = characters.count
    }

    /// Undoes the last edit step; returns false when there is none.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let snapshot = history.undo(from: Snapshot(characters: characters, cursor: cursor)) else { return false }
        characters = snapshot.characters
        cursor = snapshot.cursor
        return true
    }

    /// Redoes the last undone step; returns false when there is none.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let snapshot = history.redo(from: Snapshot(characters: characters, cursor: cursor)) else { return false }
        characters = snapshot.characters
        cursor = snapshot.cursor
        return true
    }

    /// Applies an editing key (see `EditorKeys` for the table); returns false for other keys.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        guard let action = EditorKeys.action(for: key) else { return false }
        return perform(action)
    }

    /// Applies an editing action; Up, Down and Enter are not a one-line field's, so they return false.
    @discardableResult
    public mutating func perform(_ action: EditorAction) -> Bool {
        switch action {
        case .insert(let c): insert(String(c))
        case .left: moveLeft()
        case .right: moveRight()
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
        case .up, .down, .newline: return false
        }
        return true
    }

    // MARK: Undo bookkeeping

    private struct Snapshot: Sendable, Hashable {
        var characters: [Character]
        var cursor: Int
    }

    /// Saves the state before an edit, unless it continues a run of the same kind of edit.
    private mutating func checkpoint(_ kind: EditKind) {
        history.checkpoint(kind, Snapshot(characters: characters, cursor: cursor))
    }
}

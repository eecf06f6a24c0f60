/// What kind of edit a step was: runs of typing or of deleting coalesce into one undo step.
enum EditKind: Sendable, Hashable { case none, typing, deleting, other }

/// The undo and redo stacks of an editor, holding whole snapshots of its text and cursor.
struct UndoHistory<Snapshot: Sendable & Hashable>: Sendable, Hashable {
    private var undoStack: [Snapshot] = []
    private var redoStack: [Snapshot] = []
    private var lastEdit: EditKind = .none

    /// How many undo steps are kept; older ones are dropped.
    static var limit: Int { LineEditor.undoLimit }

    var canUndo: Bool { !undoStack.isEmpty }

    /// Ends a run of typing or deleting, so that the next edit is a step of its own (a cursor move).
    mutating func endRun() { lastEdit = .none }

    /// Saves `current`, the state before an edit, unless the edit continues a run of the same kind.
    mutating func checkpoint(_ kind: EditKind, _ current: Snapshot) {
        defer { lastEdit = kind }
        if kind != .other, kind == lastEdit { return }
        undoStack.append(current)
        if undoStack.count > Self.limit { undoStack.removeFirst() }
        redoStack.removeAll()
    }

    /// The state to go back to, keeping `current` for redo; nil when there is nothing to undo.
    mutating func undo(from current: Snapshot) -> Snapshot? {
        guard let snapshot = undoStack.popLast() else { return nil }
        redoStack.append(current)
        lastEdit = .none
        return snapshot
    }

    /// The state an undo left, keeping `current` for undo; nil when there is nothing to redo.
    mutating func redo(from current: Snapshot) -> Snapshot? {
        guard let snapshot = redoStack.popLast() else { return nil }
        undoStack.append(current)
        lastEdit = .none
        return snapshot
    }
}

/// What the single-line and multi-line editors share: keys, editing actions and pastes go in, and an input
/// event that is none of them is left for the pane. Apps that keep their own keymap drive an editor through
/// `perform(_:)`, so either kind of field answers the same commands.
public protocol TextEditing {
    /// The text being edited, lines joined with `\n`.
    var text: String { get }
    /// The display columns before the cursor on its line: where the terminal cursor goes.
    var cursorColumn: Int { get }
    /// Replaces the whole text (cursor at the end) as one undoable step; unchanged text is not a step.
    mutating func setText(_ text: String)
    /// Inserts text at the cursor as one undoable step.
    mutating func paste(_ text: String)
    /// Applies an editing action; returns false for actions this kind of field does not have.
    mutating func perform(_ action: EditorAction) -> Bool
    /// Applies an editing key; returns false for keys the editor does not use, so the pane can.
    mutating func handle(_ key: Key) -> Bool
}

extension TextEditing {
    /// Applies an editing key or a paste; returns false for events the editor does not use.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .paste(let text): paste(text); return true
        case .key(let key): return handle(key)
        case .mouse, .resize: return false
        }
    }
}

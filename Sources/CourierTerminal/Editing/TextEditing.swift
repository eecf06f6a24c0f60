/// What the single-line and multi-line editors share: keys and pastes go in, and an input event that is
/// neither is left for the pane.
public protocol TextEditing {
    /// Inserts text at the cursor as one undoable step.
    mutating func paste(_ text: String)
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

/// Commands while typing in a text field (request fields, filters, prompts).
public enum EditCommand: Sendable, Hashable {
    case stopEditing, accept
    case left, right, up, down, wordLeft, wordRight, home, end
    case backspace, deleteForward, deleteWord, deleteWordForward, deleteToStart, deleteToEnd, undo, redo
}

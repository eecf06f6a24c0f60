import CourierTerminal

/// One change to a text field of the explorer: an editing action from the app's keymap, or a paste.
public enum FieldEdit: Sendable, Hashable {
    case action(EditorAction)
    case paste(String)
}

extension EditCommand {
    /// What the command does to the text of a field; nil for the commands the pane decides
    /// (Esc stops editing; Enter sends, submits or breaks the line depending on the field).
    var editorAction: EditorAction? { Self.editorActions[self] }

    /// The app's editing commands as CourierTerminal's editor actions, as data.
    static let editorActions: [EditCommand: EditorAction] = [
        .left: .left, .right: .right, .up: .up, .down: .down,
        .wordLeft: .wordLeft, .wordRight: .wordRight, .home: .home, .end: .end,
        .backspace: .deleteBackward, .deleteForward: .deleteForward,
        .deleteWord: .deleteWordBackward, .deleteWordForward: .deleteWordForward,
        .deleteToStart: .deleteToStart, .deleteToEnd: .deleteToEnd, .undo: .undo, .redo: .redo,
    ]
}

extension TextEditing {
    /// Applies an editing command that does not depend on the field's purpose.
    mutating func apply(_ command: EditCommand) {
        if let action = command.editorAction { _ = perform(action) }
    }

    /// Applies one change: an action (a no-op where the field has no such action) or a paste.
    mutating func apply(_ edit: FieldEdit) {
        switch edit {
        case .action(let action): _ = perform(action)
        case .paste(let text): paste(text)
        }
    }
}

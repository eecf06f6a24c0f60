/// What an editing key does.
public enum EditorAction: Sendable, Hashable {
    case insert(Character)
    case left, right, up, down, wordLeft, wordRight, home, end
    case deleteBackward, deleteForward, deleteWordBackward, deleteWordForward, deleteToStart, deleteToEnd
    case undo, redo, newline
}

/// The editing keys shared by one-line and multi-line editors (readline/Emacs style plus the
/// usual arrows), as data so help can list them.
public enum EditorKeys {
    /// Keys with a fixed meaning, in the order help lists them.
    public static let table: [(Key, EditorAction)] = [
        (Key(.left), .left), (Key(.right), .right), (.ctrl("b"), .left), (.ctrl("f"), .right),
        (Key(.up), .up), (Key(.down), .down),
        (Key(.left, ctrl: true), .wordLeft), (Key(.right, ctrl: true), .wordRight),
        (Key(.left, alt: true), .wordLeft), (Key(.right, alt: true), .wordRight),
        (Key(.character("b"), alt: true), .wordLeft), (Key(.character("f"), alt: true), .wordRight),
        (Key(.home), .home), (Key(.end), .end), (.ctrl("a"), .home), (.ctrl("e"), .end),
        (Key(.backspace), .deleteBackward), (.ctrl("h"), .deleteBackward),
        (Key(.delete), .deleteForward), (.ctrl("d"), .deleteForward),
        (.ctrl("w"), .deleteWordBackward), (Key(.backspace, alt: true), .deleteWordBackward),
        (Key(.character("d"), alt: true), .deleteWordForward),
        (.ctrl("u"), .deleteToStart), (.ctrl("k"), .deleteToEnd),
        // Undo is readline's Ctrl-_ (Ctrl-/ sends it too): Ctrl-Z suspends the explorer to the shell, so
        // it never reaches an editor (the request editor's keymap uses the same keys).
        (.ctrl("_"), .undo), (.ctrl("y"), .redo), (Key(.enter), .newline),
    ]

    /// The action for `key`: a table entry, or inserting a printable character typed without Ctrl/Alt.
    public static func action(for key: Key) -> EditorAction? {
        if let entry = table.first(where: { $0.0 == key }) { return entry.1 }
        if case .character(let c) = key.code, !key.ctrl, !key.alt, !isControl(c) { return .insert(c) }
        return nil
    }

    private static func isControl(_ c: Character) -> Bool {
        c.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
    }
}

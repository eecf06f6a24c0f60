import CourierTerminal

/// The explorer's keymap tables. Dispatch, the status bar hints, `?` help and the palette read
/// these tables and nothing else, so they cannot disagree. The shared tables are here; each pane's is its
/// `Pane.keymap`, in its folder.
public enum Keymaps {
    /// Keys that work in every pane when nothing is being typed, for the standard panes.
    public static let global = global(tiles: PaneID.allCases)

    /// The global keys for a layout of `tiles`: each is focused by its number.
    public static func global(tiles: [PaneID]) -> [KeyBinding<GlobalCommand>] {
        [
            KeyBinding([Key(.tab)], .focusNext, "next pane"),
            KeyBinding([Key(.tab, shift: true)], .focusPrevious, "previous pane"),
        ] + tiles.map { KeyBinding([.char(Character(String($0.rawValue)))], .focus($0), "focus \($0.spoken)") } + [
            KeyBinding([Key(.enter)], .send, "send", hint: true),
            KeyBinding([.ctrl("c")], .cancel, "cancel request in flight"),
            KeyBinding([.ctrl("s")], .save, "save request to file"),
            KeyBinding([.char("z")], .zoom, "zoom pane"),
            KeyBinding([.char(":"), .ctrl("p")], .palette, "commands", hint: true),
            KeyBinding([.char("E")], .chooseEnvironment, "choose environment"),
            KeyBinding([.char("T")], .chooseTheme, "choose theme"),
            KeyBinding([Key(.function(4))], .cookieJar, "cookie jar of the environment"),
            KeyBinding([Key(.function(2)), .char("R")], .history, "history of this request"),
            KeyBinding([Key(.function(3))], .historyAll, "all history"),
            KeyBinding([.char("!")], .problems, "problems in the collection"),
            KeyBinding([Key(.function(6))], .toggleSecrets, "show or mask secrets on screen"),
            KeyBinding([.ctrl("r"), Key(.function(5))], .reload, "reload the collection from disk"),
            KeyBinding([.char("U")], .discardDraft, "discard this request's unsaved edits (u in a field undoes)"),
            KeyBinding([Key(.character("u"), alt: true)], .discardAllDrafts, "discard every request's unsaved edits"),
            KeyBinding([.char("?")], .help, "help", hint: true),
            KeyBinding([.char("q")], .quit, "quit", hint: true),
            KeyBinding([.ctrl("z")], .suspend, "suspend to the shell (fg resumes)"),
            KeyBinding([.ctrl("l")], .repaint, "repaint the screen"),
        ]
    }

    /// Global keys that still work while typing: they are never characters.
    public static let globalWhileTyping: Set<GlobalCommand> = [.cancel, .save, .palette, .focusNext, .focusPrevious, .suspend,
                                                                     .repaint]

    public static let editing: [KeyBinding<EditCommand>] = [
        KeyBinding([Key(.escape)], .stopEditing, "stop editing", hint: true),
        KeyBinding([Key(.enter)], .accept, "send (URL) / new line (body)", hint: true),
        KeyBinding([Key(.left), .ctrl("b")], .left, "left"),
        KeyBinding([Key(.right), .ctrl("f")], .right, "right"),
        KeyBinding([Key(.up)], .up, "line up"),
        KeyBinding([Key(.down)], .down, "line down"),
        KeyBinding([Key(.left, ctrl: true), Key(.left, alt: true), Key(.character("b"), alt: true)], .wordLeft,
                   "word left"),
        KeyBinding([Key(.right, ctrl: true), Key(.right, alt: true), Key(.character("f"), alt: true)], .wordRight,
                   "word right"),
        KeyBinding([Key(.home), .ctrl("a")], .home, "line start"),
        KeyBinding([Key(.end), .ctrl("e")], .end, "line end"),
        KeyBinding([Key(.backspace)], .backspace, "delete left"),
        KeyBinding([Key(.delete), .ctrl("d")], .deleteForward, "delete right"),
        KeyBinding([.ctrl("w"), Key(.backspace, alt: true)], .deleteWord, "delete word"),
        KeyBinding([Key(.character("d"), alt: true)], .deleteWordForward, "delete word right"),
        KeyBinding([.ctrl("u")], .deleteToStart, "delete to line start"),
        KeyBinding([.ctrl("k")], .deleteToEnd, "delete to line end"),
        // Undo as in readline (Ctrl-_, which Ctrl-/ also sends); Ctrl-Z suspends the explorer to the shell.
        KeyBinding([.ctrl("_")], .undo, "undo"),
        KeyBinding([.ctrl("y")], .redo, "redo"),
    ]

    /// A key as the tables spell it: Ctrl letters lower-case, so `Ctrl-P` from any backend matches.
    public static func normalized(_ key: Key) -> Key {
        guard key.ctrl, case .character(let c) = key.code else { return key }
        return Key(.character(Character(c.lowercased())), ctrl: true, alt: key.alt, shift: false)
    }
}

import CourierTerminal

extension ResponsePaneState {
    /// One keymap drives dispatch, the status bar hints and `?` help.
    public static let keymap: [KeyBinding<ResponsePaneCommand>] = [
        KeyBinding([.char("j"), Key(.down)], .lineDown, "line down"),
        KeyBinding([.char("k"), Key(.up)], .lineUp, "line up"),
        KeyBinding([Key(.pageDown), .char(" "), .ctrl("f")], .pageDown, "page down"),
        KeyBinding([Key(.pageUp), .ctrl("b")], .pageUp, "page up"),
        KeyBinding([.char("g"), Key(.home)], .top, "top"),
        KeyBinding([.char("G"), Key(.end)], .end, "end"),
        KeyBinding([.char("h"), Key(.left)], .scrollLeft, "scroll left"),
        KeyBinding([.char("l"), Key(.right)], .scrollRight, "scroll right"),
        // Not `:`, which opens the command palette in every pane.
        KeyBinding([.ctrl("g")], .beginGoToLine, "go to line"),
        KeyBinding([.char("/")], .beginSearch, "search", hint: true),
        KeyBinding([.char("n")], .nextHit, "next match"),
        KeyBinding([.char("N")], .previousHit, "previous match"),
        KeyBinding([.char("f")], .beginFilter, "JSONPath filter", hint: true),
        // Not `z`, which zooms the focused pane in every pane.
        KeyBinding([.char("o")], .toggleFold, "fold/unfold", hint: true),
        KeyBinding([.char("y")], .copyPath, "copy JSONPath"),
        KeyBinding([.char("H")], .toggleHeaders, "headers/body", hint: true),
        KeyBinding([.char("r")], .togglePretty, "raw/pretty"),
        KeyBinding([.char("w")], .toggleWrap, "wrap lines"),
        KeyBinding([.char("x")], .toggleHex, "hex view"),
        KeyBinding([.char("d")], .toggleDiff, "diff with previous", hint: true),
        KeyBinding([.char("s")], .saveBody, "save body"),
        KeyBinding([Key(.escape)], .clear, "clear filter/diff/search"),
    ]

    /// The command for a key: while a prompt is open, keys edit it instead of running `keymap`
    /// (the user's, from the app's key tables).
    public func command(for key: Key, keymap: [KeyBinding<ResponsePaneCommand>] = Self.keymap) -> ResponsePaneCommand? {
        if prompt != nil {
            switch Keymaps.editing.command(for: key) {
            case .accept?: return .submit
            case .stopEditing?: return .clear
            case let command?: return .edit(command)
            case nil: return key.typedCharacter.map { .input($0) }
            }
        }
        return keymap.command(for: key)
    }
}

import CourierTerminal

extension Keymaps {
    public static let collection: [KeyBinding<CollectionCommand>] = [
        KeyBinding([.char("k"), Key(.up)], .up, "up"),
        KeyBinding([.char("j"), Key(.down)], .down, "down"),
        KeyBinding([.char("g"), Key(.home)], .top, "first"),
        KeyBinding([.char("G"), Key(.end)], .bottom, "last"),
        KeyBinding([Key(.pageUp)], .pageUp, "page up"),
        KeyBinding([Key(.pageDown)], .pageDown, "page down"),
        KeyBinding([Key(.enter)], .open, "open and send", hint: true),
        KeyBinding([.char("l"), Key(.right), .char(" ")], .expand, "expand / toggle folder"),
        KeyBinding([.char("h"), Key(.left)], .collapse, "collapse folder"),
        KeyBinding([.char("/")], .filter, "filter", hint: true),
        KeyBinding([Key(.escape)], .clearFilter, "clear filter"),
        KeyBinding([.char("n")], .newRequest, "new", hint: true),
        KeyBinding([.char("d")], .duplicate, "duplicate request"),
        KeyBinding([.char("r")], .rename, "rename request"),
        KeyBinding([.char("x")], .delete, "delete request"),
    ]
}

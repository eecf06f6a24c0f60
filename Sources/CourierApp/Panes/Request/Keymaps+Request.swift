import CourierTerminal

extension Keymaps {
    public static let request: [KeyBinding<RequestCommand>] = [
        KeyBinding([.char("e"), .char("i")], .edit, "edit", hint: true),
        KeyBinding([.char("k"), Key(.up)], .fieldUp, "URL line"),
        KeyBinding([.char("j"), Key(.down)], .fieldDown, "tab below"),
        KeyBinding([.char("l"), Key(.right), .char("]")], .nextTab, "next tab"),
        KeyBinding([.char("h"), Key(.left), .char("[")], .previousTab, "previous tab"),
        KeyBinding([.char("m")], .nextMethod, "method", hint: true),
        KeyBinding([.char("M")], .previousMethod, "previous method"),
        KeyBinding([.char("v")], .toggleResolved, "show variables resolved"),
        KeyBinding([.char("L")], .toggleLive, "live mode", hint: true),
        KeyBinding([.char("u")], .undo, "undo in field"),
        KeyBinding([.char("J")], .nextOption, "next option row"),
        KeyBinding([.char("K")], .previousOption, "previous option row"),
    ]
}

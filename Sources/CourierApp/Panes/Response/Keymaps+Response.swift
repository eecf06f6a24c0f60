import CourierTerminal

extension Keymaps {
    /// The explorer's keys in the response pane, after the response viewer's own keymap.
    public static let response: [KeyBinding<ResponseCommand>] = [
        KeyBinding([.char("Y")], .copyBody, "copy body (OSC 52)"),
        KeyBinding([.char("C")], .copyCurl, "copy as curl", hint: true),
        KeyBinding([.char("X")], .copyCode, "copy request as code (choose the language)"),
        KeyBinding([.char("c")], .compare, "compare cached with revalidated", hint: true),
    ]
}

@preconcurrency import CNcursesw

/// The curses key codes the explorer understands, as data.
enum CursesKeys {
    /// Key codes from the terminfo key table and the keys they are.
    static let table: [Int32: Key] = {
        var table: [Int32: Key] = [
            KEY_UP: Key(.up), KEY_DOWN: Key(.down), KEY_LEFT: Key(.left), KEY_RIGHT: Key(.right),
            KEY_HOME: Key(.home), KEY_END: Key(.end), KEY_PPAGE: Key(.pageUp), KEY_NPAGE: Key(.pageDown),
            KEY_DC: Key(.delete), KEY_IC: Key(.insert), KEY_BACKSPACE: Key(.backspace), KEY_ENTER: Key(.enter),
            KEY_BTAB: Key(.tab, shift: true),
            KEY_SR: Key(.up, shift: true), KEY_SF: Key(.down, shift: true),
            KEY_SLEFT: Key(.left, shift: true), KEY_SRIGHT: Key(.right, shift: true),
            KEY_SHOME: Key(.home, shift: true), KEY_SEND: Key(.end, shift: true), KEY_SDC: Key(.delete, shift: true),
        ]
        // F13–F24 are Shift-F1…F12 and F25–F36 Ctrl-F1…F12 on xterm-like terminals.
        for n in 1...12 {
            table[KEY_F0 + Int32(n)] = Key(.function(n))
            table[KEY_F0 + Int32(n + 12)] = Key(.function(n), shift: true)
            table[KEY_F0 + Int32(n + 24)] = Key(.function(n), ctrl: true)
        }
        return table
    }()

    /// The decoder for curses input, with extended key names from curses' `keyname`.
    static var decoder: InputDecoder {
        InputDecoder(keyCodes: table) { code in keyname(code).map { String(cString: $0) } }
    }
}

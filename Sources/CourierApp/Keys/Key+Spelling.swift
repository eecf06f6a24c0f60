import CourierTerminal

extension Key {
    /// Why a key's spelling in config.json was not understood.
    public enum SpellingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Neither a single character nor a key name help uses.
        case unknown(String)
        /// A chord the terminal cannot send, with the reason.
        case unsendable(String, reason: String)

        public var description: String {
            switch self {
            case .unknown(let text):
                "unknown key '\(text)' (write keys as help shows them: j, G, Space, Ctrl-S, Alt-x, Shift-Tab, "
                    + "Enter, Esc, Tab, Backspace, Del, Up, Down, Left, Right, Home, End, PgUp, PgDn, F1…F12)"
            case .unsendable(let text, let reason):
                "the terminal cannot send '\(text)': \(reason)"
            }
        }
    }

    /// Key names as help prints them (`Key.description`), and the longer names people also write.
    static let namedCodes: [String: Code] = [
        "enter": .enter, "return": .enter, "tab": .tab, "backspace": .backspace, "bs": .backspace,
        "del": .delete, "delete": .delete, "esc": .escape, "escape": .escape, "ins": .insert, "insert": .insert,
        "up": .up, "↑": .up, "down": .down, "↓": .down, "left": .left, "←": .left, "right": .right, "→": .right,
        "home": .home, "end": .end, "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "space": .character(" "),
    ]

    /// Control characters a terminal sends for Ctrl with these keys (besides letters).
    static let controlPunctuation: Set<Character> = [" ", "\\", "]", "^", "_"]

    /// Reads a key spelt the way help prints it: `j`, `G`, `Space`, `Ctrl-S`, `Alt-x`, `Shift-Tab`, `F2`,
    /// `PgDn`, `↑` or `Up`. Modifier and key names are case-insensitive; a single character is taken as is.
    public init(spelling text: String) throws(SpellingError) {
        var rest = Substring(text)
        var ctrl = false, alt = false, shift = false
        // A modifier needs something after it, so `-` alone and `Alt--` still name the minus key.
        while let dash = rest.firstIndex(of: "-"), rest.index(after: dash) < rest.endIndex {
            switch rest[..<dash].lowercased() {
            case "ctrl", "control", "c": ctrl = true
            case "alt", "meta", "option", "a", "m": alt = true
            case "shift", "s": shift = true
            default:
                throw .unknown(text)
            }
            rest = rest[rest.index(after: dash)...]
        }
        let code: Code
        if let named = Self.namedCodes[rest.lowercased()] {
            code = named
        } else if rest.count == 1, let character = rest.first {
            code = .character(character)
        } else if rest.count >= 2, rest.first == "F" || rest.first == "f", let n = Int(rest.dropFirst()),
                  (1...24).contains(n) {
            code = .function(n)
        } else {
            throw .unknown(text)
        }
        self = try Self.sendable(code, ctrl: ctrl, alt: alt, shift: shift, text: text)
    }

    /// The key as the decoder delivers it: Ctrl letters lower-case, shifted letters as capitals.
    private static func sendable(_ code: Code, ctrl: Bool, alt: Bool, shift: Bool, text: String)
        throws(SpellingError) -> Key {
        guard case .character(let character) = code else { return Key(code, ctrl: ctrl, alt: alt, shift: shift) }
        if ctrl {
            let lower = Character(character.lowercased())
            guard lower.isASCII, lower.isLetter || controlPunctuation.contains(lower) else {
                throw .unsendable(text, reason: "Ctrl works with letters, Space and \\ ] ^ _")
            }
            guard !shift else { throw .unsendable(text, reason: "Ctrl-Shift-x arrives as Ctrl-x") }
            return Key(.character(lower), ctrl: true, alt: alt)
        }
        if shift {
            guard character.isLetter else {
                throw .unsendable(text, reason: "write the shifted character itself (`?`, not `Shift-/`)")
            }
            return Key(.character(Character(character.uppercased())), alt: alt)
        }
        return Key(.character(character), alt: alt)
    }
}

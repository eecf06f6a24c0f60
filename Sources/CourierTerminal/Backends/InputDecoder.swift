/// One thing curses handed over: a character, or a key code from its terminfo key table.
public enum RawInput: Sendable, Hashable {
    case character(UInt32)
    case keyCode(Int32)
}

/// Turns what curses reads into `InputEvent`s: control characters into Ctrl keys, ESC prefixes into
/// Alt, bracketed paste (`ESC[200~ … ESC[201~`) into one `.paste`. Pure: it reads through a closure,
/// so tests drive it with scripted input.
public struct InputDecoder: Sendable {
    /// Key codes curses reports (`KEY_UP`, `KEY_F0 + n`, …) and the keys they are.
    public var keyCodes: [Int32: Key]
    /// Names of extended keys (`kLFT5` is Ctrl-←), from curses' `keyname` for codes not in `keyCodes`.
    public var extendedKeyName: @Sendable (Int32) -> String?
    /// How long to wait for the rest of an escape sequence, in milliseconds.
    public var sequenceWait: Int = 30
    /// Pastes larger than this are cut, so a runaway paste cannot exhaust memory.
    public var pasteLimit: Int = 16 << 20

    public init(keyCodes: [Int32: Key], extendedKeyName: @escaping @Sendable (Int32) -> String? = { _ in nil }) {
        self.keyCodes = keyCodes
        self.extendedKeyName = extendedKeyName
    }

    /// Decodes the event that starts with `first`, reading more with `next(waitMilliseconds)` when a
    /// sequence continues (nil: nothing came in time). Returns nil for input that means nothing
    /// (an unknown escape sequence).
    public func decode(_ first: RawInput, next: (Int) -> RawInput?) -> InputEvent? {
        switch first {
        case .keyCode(let code): return key(forCode: code).map { .key($0) }
        case .character(27): return decodeEscape(next: next)
        case .character(let value): return key(forCharacter: value).map { .key($0) }
        }
    }

    /// The key for a character curses returned as text.
    public func key(forCharacter value: UInt32) -> Key? {
        switch value {
        case 9: return Key(.tab)
        case 10, 13: return Key(.enter)
        case 8, 127: return Key(.backspace)
        case 27: return Key(.escape)
        case 0: return .ctrl(" ")
        case 1...26: return .ctrl(Character(Unicode.Scalar(value + 96)!))
        case 28...31: return .ctrl(Character(Unicode.Scalar(value + 64)!))  // Ctrl-\ ] ^ _
        case 0x80..<0xA0: return nil  // C1 controls are never keys
        default: return Unicode.Scalar(value).map { .char(Character($0)) }
        }
    }

    /// The key for a curses key code, including extended names for modified arrows and keys.
    public func key(forCode code: Int32) -> Key? {
        if let key = keyCodes[code] { return key }
        guard let name = extendedKeyName(code) else { return nil }
        return InputDecoder.extendedKey(named: name)
    }

    /// xterm's extended key names: `kLFT5` is Ctrl-←, `kUP3` Alt-↑, `kRIT2` Shift-→, `kDC5` Ctrl-Del.
    public static func extendedKey(named name: String) -> Key? {
        guard let digit = name.last?.wholeNumberValue, (2...8).contains(digit) else { return nil }
        let base: Key.Code? = switch String(name.dropLast()) {
        case "kUP": .up
        case "kDN": .down
        case "kLFT": .left
        case "kRIT": .right
        case "kHOM": .home
        case "kEND": .end
        case "kDC": .delete
        case "kIC": .insert
        case "kPRV": .pageUp
        case "kNXT": .pageDown
        default: nil
        }
        guard let base else { return nil }
        // xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4).
        let bits = digit - 1
        return Key(base, ctrl: bits & 4 != 0, alt: bits & 2 != 0, shift: bits & 1 != 0)
    }

    // MARK: Escape sequences

    private func decodeEscape(next: (Int) -> RawInput?) -> InputEvent? {
        guard let second = next(sequenceWait) else { return .key(Key(.escape)) }
        switch second {
        case .keyCode(let code):
            // Some terminals send Alt-← as ESC then the arrow.
            guard var key = key(forCode: code) else { return nil }
            key.alt = true
            return .key(key)
        case .character(91):  // "["
            return decodeCSI(next: next)
        case .character(79):  // "O": SS3, F1–F4 and arrows in application mode
            guard case .character(let third)? = next(sequenceWait) else { return .key(Key(.character("O"), alt: true)) }
            return InputDecoder.ss3Keys[third].map { .key($0) }
        case .character(27):
            return .key(Key(.escape, alt: true))
        case .character(let value):
            guard var key = key(forCharacter: value) else { return nil }
            key.alt = true
            return .key(key)
        }
    }

    /// After `ESC [`: a paste start, or a sequence curses did not know (swallowed whole).
    private func decodeCSI(next: (Int) -> RawInput?) -> InputEvent? {
        var body = ""
        while body.count < 32 {
            guard case .character(let value)? = next(sequenceWait) else {
                // `ESC [` alone is Alt-[.
                return body.isEmpty ? .key(Key(.character("["), alt: true)) : nil
            }
            let scalar = Unicode.Scalar(value) ?? " "
            body.unicodeScalars.append(scalar)
            if (0x40...0x7E).contains(value) { break }  // a CSI final byte
        }
        if body == "200~" { return readPaste(next: next) }
        if body.first == "<" { return InputDecoder.sgrMouse(String(body.dropFirst())) }
        return InputDecoder.csiKey(body).map { .key($0) }
    }

    /// Reads the rest of a mouse report after curses matched its prefix (`ESC[<` or `ESC[M`).
    public func decodeMouseReport(next: (Int) -> RawInput?) -> InputEvent? {
        guard case .character(let first)? = next(sequenceWait) else { return nil }
        if (48...57).contains(first) {
            // SGR: "b;x;y" then M (press) or m (release).
            var body = String(Unicode.Scalar(first)!)
            while body.count < 32, case .character(let value)? = next(sequenceWait), let scalar = Unicode.Scalar(value) {
                body.unicodeScalars.append(scalar)
                if value == 77 || value == 109 { break }
            }
            return InputDecoder.sgrMouse(body)
        }
        // X10: three bytes, each offset by 32.
        guard case .character(let x)? = next(sequenceWait), case .character(let y)? = next(sequenceWait) else { return nil }
        let button = Int(first) - 32
        return InputDecoder.mouse(button: button, x: Int(x) - 33, y: Int(y) - 33, released: button & 3 == 3)
    }

    /// An SGR mouse report's body after `<`: `0;5;3M`.
    static func sgrMouse(_ body: String) -> InputEvent? {
        guard let final = body.last, final == "M" || final == "m" else { return nil }
        let numbers = body.dropLast().split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        return mouse(button: numbers[0], x: numbers[1] - 1, y: numbers[2] - 1, released: final == "m")
    }

    private static func mouse(button: Int, x: Int, y: Int, released: Bool) -> InputEvent? {
        let position = Position(x: max(0, x), y: max(0, y))
        if button & 32 != 0 { return nil }  // motion
        if button & 64 != 0 {
            return .mouse(MouseEvent(kind: button & 1 == 0 ? .scrollUp : .scrollDown, position: position))
        }
        guard button & 3 == 0 || released else { return nil }  // left button only
        return .mouse(MouseEvent(kind: released ? .release : .press, position: position))
    }

    /// Keys after `ESC O`.
    static let ss3Keys: [UInt32: Key] = [
        80: Key(.function(1)), 81: Key(.function(2)), 82: Key(.function(3)), 83: Key(.function(4)),
        65: Key(.up), 66: Key(.down), 67: Key(.right), 68: Key(.left), 72: Key(.home), 70: Key(.end),
    ]

    /// `~` sequence numbers and their keys (xterm, VT220).
    static let tildeKeys: [Int: Key.Code] = [
        1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end,
        11: .function(1), 12: .function(2), 13: .function(3), 14: .function(4), 15: .function(5),
        17: .function(6), 18: .function(7), 19: .function(8), 20: .function(9), 21: .function(10),
        23: .function(11), 24: .function(12),
    ]

    /// Final letters of cursor-key sequences.
    static let letterKeys: [Character: Key.Code] = [
        "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end,
        "P": .function(1), "Q": .function(2), "R": .function(3), "S": .function(4),
    ]

    /// A key from a CSI sequence's body that curses did not know (`1;5C` is Ctrl-→, `3~` Delete).
    static func csiKey(_ body: String) -> Key? {
        guard let final = body.last else { return nil }
        if final == "Z" { return Key(.tab, shift: true) }
        let parameters = body.dropLast().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let modifier = parameters.count > 1 ? (parameters[1] ?? 1) : 1
        let code: Key.Code?
        if final == "~" {
            code = parameters.first.flatMap { $0 }.flatMap { tildeKeys[$0] }
        } else {
            code = letterKeys[final]
        }
        guard let code else { return nil }
        let bits = max(0, modifier - 1)
        return Key(code, ctrl: bits & 4 != 0, alt: bits & 2 != 0, shift: bits & 1 != 0)
    }

    /// Collects pasted text up to `ESC[201~`. Newlines arrive as CR in raw mode and become `\n`
    /// (a CR LF pair becomes one `\n`).
    private func readPaste(next: (Int) -> RawInput?) -> InputEvent? {
        let end: [UInt32] = [27, 91, 50, 48, 49, 126]  // ESC [ 2 0 1 ~
        var text = String.UnicodeScalarView()
        var count = 0
        var lastWasCR = false
        func append(_ value: UInt32) {
            guard count < pasteLimit else { return }
            if value == 10, lastWasCR { lastWasCR = false; return }
            lastWasCR = value == 13
            text.append(value == 13 ? "\n" : Unicode.Scalar(value) ?? "\u{FFFD}")
            count += 1
        }
        var matched = 0
        // A paste arrives in one burst; a long silence means the end marker was lost.
        while let input = next(1000) {
            guard case .character(let value) = input else { continue }
            if value == end[matched] {
                matched += 1
                if matched == end.count { break }
                continue
            }
            for index in 0..<matched { append(end[index]) }
            matched = 0
            if value == end[0] { matched = 1 } else { append(value) }
        }
        return .paste(String(text))
    }
}

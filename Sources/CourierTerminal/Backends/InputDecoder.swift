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
        return body == "200~" ? readPaste(next: next) : nil
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

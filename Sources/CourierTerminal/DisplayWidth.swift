/// How many terminal columns a character takes: 0, 1 or 2.
///
/// Follows what wcwidth-based terminals (xterm, tmux, VTE) do, so the buffer and the screen agree:
/// East Asian Wide and Fullwidth take two columns, emoji with emoji presentation (or forced by
/// VS16) take two, combining marks and zero-width formats take none.
public enum DisplayWidth {
    /// The columns one grapheme cluster takes.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return of(first) }
        // A flag is two regional indicators; an emoji sequence (ZWJ, skin tone, keycap, VS16) is
        // drawn as one wide glyph.
        if isRegionalIndicator(first.value) { return 2 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
        // Otherwise the base decides; the rest are marks or joiners on top of it.
        return of(first)
    }

    /// The columns one scalar takes on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }  // Latin fast path
        if zeroWidth.contains(where: { $0.contains(v) }) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        if wide.contains(where: { $0.contains(v) }) { return 2 }
        return 1
    }

    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int { text.reduce(0) { $0 + of($1) } }

    /// The longest prefix of `text` that fits in `columns`, and its width.
    public static func prefix(of text: some StringProtocol, fitting columns: Int) -> (Substring, Int) {
        let string = Substring(text)
        var used = 0
        var end = string.startIndex
        for index in string.indices {
            let width = of(string[index])
            if used + width > columns { break }
            used += width
            end = string.index(after: index)
        }
        return (string[string.startIndex..<end], used)
    }

    private static func isRegionalIndicator(_ v: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(v) }

    /// Scalars that take no column although their category says otherwise (Hangul medial and final
    /// jamo join the initial one; zero-width space and joiners).
    static let zeroWidth: [ClosedRange<UInt32>] = [
        0x1160...0x11FF, 0xD7B0...0xD7FF, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF...0xFEFF,
    ]

    /// East Asian Wide (W) and Fullwidth (F) ranges, merged; emoji are judged by their presentation
    /// property instead, which is how EastAsianWidth.txt classifies them.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

/// Turns characters a terminal would act on into visible symbols, so nothing from a server can move the
/// cursor, set the title, write the clipboard or reorder text.
public enum Sanitizer {
    /// The characters to draw for `character`: itself when it is safe, a visible stand-in otherwise.
    public static func visible(_ character: Character) -> [Character] {
        guard let first = character.unicodeScalars.first else { return [] }
        if character.unicodeScalars.count == 1 || character == "\r\n" {
            if let replacement = stand(in: first) { return [replacement] }
            return [character]
        }
        // A cluster that carries a control scalar is split so each scalar is judged on its own.
        if character.unicodeScalars.contains(where: { stand(in: $0) != nil }) {
            return character.unicodeScalars.map { stand(in: $0) ?? Character($0) }
        }
        return [character]
    }

    /// The whole string made safe.
    public static func sanitize(_ text: some StringProtocol) -> String {
        var out = ""
        for character in text { out.append(contentsOf: visible(character)) }
        return out
    }

    private static func stand(in scalar: Unicode.Scalar) -> Character? {
        switch scalar.value {
        case 0x00...0x1F: Character(Unicode.Scalar(0x2400 + scalar.value)!)  // ␀ … ␟, ␛ for ESC
        case 0x7F: "\u{2421}"                                                 // ␡
        case 0x80...0x9F: "\u{FFFD}"                                          // C1 controls
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: "\u{FFFD}"     // bidi overrides
        default: nil
        }
    }
}

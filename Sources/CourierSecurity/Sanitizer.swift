/// The one sanitiser: every byte a server or a file supplies passes here before any output, so nothing
/// from outside can move the cursor, set the title, write the clipboard or reorder text. Two renderings:
/// visible symbols for screens (`␛`), and backslash escapes for printed and piped text and JSON (`\x1B`,
/// `\u202E`), which a script can still read back.
public enum Sanitizer {
    // MARK: What is dangerous

    /// Bidirectional controls, which reorder what is shown (a file name that reads backwards).
    public static let bidiControls: Set<UInt32> = Set([0x200E, 0x200F, 0x061C])
        .union(0x202A...0x202E).union(0x2066...0x2069)

    /// Whether a terminal would act on `scalar`: C0 controls other than newline and tab, DEL, C1 and
    /// bidi controls.
    public static func isDangerous(_ scalar: Unicode.Scalar, keepingLayout: Bool = true) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLayout
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        default: bidiControls.contains(scalar.value)
        }
    }

    // MARK: Visible symbols (screens)

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

    /// The whole string made safe with visible symbols: every control is shown, newlines and tabs too unless
    /// `keepingLayout` (a body printed as lines).
    public static func sanitize(_ text: some StringProtocol, keepingLayout: Bool = false) -> String {
        var out = ""
        for character in text {
            if keepingLayout && (character == "\n" || character == "\t") {
                out.append(character)
            } else {
                out.append(contentsOf: visible(character))
            }
        }
        return out
    }

    private static func stand(in scalar: Unicode.Scalar) -> Character? {
        switch scalar.value {
        case 0x00...0x1F: Character(Unicode.Scalar(0x2400 + scalar.value)!)  // ␀ … ␟, ␛ for ESC
        case 0x7F: "\u{2421}"                                                 // ␡
        case 0x80...0x9F: "\u{FFFD}"                                          // C1 controls
        case _ where bidiControls.contains(scalar.value): "\u{FFFD}"          // bidi controls
        default: nil
        }
    }

    // MARK: Escapes (printed text, pipes, JSON)

    /// `escaped` for a String, as nearly every line is: compiled for it, so the check each line passes runs no
    /// generic code when called from another module.
    public static func escaped(_ text: String, keepingLayout: Bool = true) -> String {
        var bytes = text
        if keepingLayout && !bytes.withUTF8({ mayHoldDangerousScalar($0) }) { return text }
        return escaped(Substring(text), keepingLayout: keepingLayout)
    }

    /// `text` with every dangerous scalar written as an escape: `\x1B` for C0, DEL and C1, `\u202E` for
    /// bidi controls. Newlines, tabs and CRLF line endings stay unless `keepingLayout` is false (a single-line
    /// field).
    public static func escaped(_ text: some StringProtocol, keepingLayout: Bool = true) -> String {
        // Most text has nothing to escape: one pass over the bytes, no copy scalar by scalar. The pass runs
        // over the contiguous bytes, not through the generic collection a byte at a time (it runs per line).
        if keepingLayout {
            let safe = text.utf8.withContiguousStorageIfAvailable { !mayHoldDangerousScalar($0) }
                ?? !mayHoldDangerousScalar(text.utf8)
            if safe { return String(text) }
        }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        // With the layout kept, a carriage return right before a newline is a line ending (CRLF, as servers
        // and Windows write text): harmless, kept as it is. Any other carriage return is escaped.
        var carriageReturn = false
        for scalar in text.unicodeScalars {
            if carriageReturn {
                carriageReturn = false
                if scalar == "\n" {
                    result += "\r\n"
                    continue
                }
                result += "\\x0D"
            }
            if keepingLayout && scalar == "\r" {
                carriageReturn = true
            } else if !isDangerous(scalar, keepingLayout: keepingLayout) {
                result.unicodeScalars.append(scalar)
            } else if bidiControls.contains(scalar.value) {
                result += "\\u" + hex(scalar.value, digits: 4)
            } else {
                result += "\\x" + hex(scalar.value, digits: 2)
            }
        }
        if carriageReturn { result += "\\x0D" }
        return result
    }

    /// Serialised JSON with DEL, C1 and bidi controls written as `\uXXXX` (JSON has them only inside
    /// strings, and its serialiser escapes C0 already but leaves these raw).
    public static func escapedJSON(_ json: String) -> String {
        var bytes = json
        guard bytes.withUTF8({ mayHoldDangerousScalar($0) }) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            if isDangerous(scalar) {
                result += "\\u" + hex(scalar.value, digits: 4)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `escapedJSON` in place for the serialised JSON at the end of `bytes`, from `start` on: a line
    /// written straight into an output buffer is checked byte by byte and rewritten only when needed.
    public static func escapeJSON(_ bytes: inout [UInt8], from start: Int) {
        let mayHold = bytes.withUnsafeBufferPointer { mayHoldDangerousScalar(UnsafeBufferPointer(rebasing: $0[start...])) }
        guard mayHold else { return }
        let escaped = escapedJSON(String(decoding: bytes[start...], as: UTF8.self))
        bytes.replaceSubrange(start..., with: escaped.utf8)
    }

    /// `escaped` in place for the UTF-8 text at the end of `bytes`, from `start` on: text written straight
    /// into an output buffer is checked byte by byte and rewritten only when needed.
    public static func escape(_ bytes: inout [UInt8], from start: Int) {
        let mayHold = bytes.withUnsafeBufferPointer { mayHoldDangerousScalar(UnsafeBufferPointer(rebasing: $0[start...])) }
        guard mayHold else { return }
        let escaped = escaped(String(decoding: bytes[start...], as: UTF8.self))
        bytes.replaceSubrange(start..., with: escaped.utf8)
    }

    /// Whether `bytes` (UTF-8) hold a dangerous scalar: C0 other than newline and tab, DEL, C1 (0xC2 0x80…0x9F),
    /// U+061C (0xD8 0x9C) or a bidi control in U+200E…U+2069 (0xE2 0x80 or 0x81 and one more byte). Exact,
    /// so common text such as `µs`, `–` or `…` does not send a line down the scalar-by-scalar path.
    static func mayHoldDangerousScalar(_ bytes: some Sequence<UInt8>) -> Bool {
        var before: UInt8 = 0
        var last: UInt8 = 0
        for byte in bytes {
            // Printable ASCII, nearly every byte, is settled by one comparison.
            if byte &- 0x20 < 0x5F {
                (before, last) = (0, 0)
                continue
            }
            if byte < 0x20 {
                if byte != 0x0A && byte != 0x09 { return true }
            } else if byte == 0x7F || (last == 0xC2 && byte <= 0x9F) || (last == 0xD8 && byte == 0x9C) {
                return true
            } else if before == 0xE2 && last == 0x80 && (byte == 0x8E || byte == 0x8F || (0xAA...0xAE).contains(byte)) {
                return true
            } else if before == 0xE2 && last == 0x81 && (0xA6...0xA9).contains(byte) {
                return true
            }
            (before, last) = (last, byte)
        }
        return false
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// RFC 9485's interoperable regular expressions (I-Regexp), which RFC 9535's `match` and `search` take, written as
/// the system's (ICU) syntax: `.` matches any character but a line feed or carriage return, `^` and `$` are plain
/// characters, and what I-Regexp lacks (`\d`, `\w`, back-references, groups with `(?`, anchors) makes the pattern
/// invalid, so the function is false rather than ICU's meaning.
enum IRegexp {
    /// The ICU pattern for an I-Regexp; nil when `pattern` is not one.
    static func icuPattern(_ pattern: String) -> String? {
        var result = ""
        var characters = pattern.makeIterator()
        var inClass = false
        var classStart = false
        while let character = characters.next() {
            if character == "\\" {
                guard let escaped = characters.next(), let written = escape(escaped, &characters) else { return nil }
                result += written
                classStart = false
                continue
            }
            if inClass {
                // No nested or empty class in I-Regexp (ICU would read `[` as a nested set).
                if character == "[" || (character == "]" && classStart) { return nil }
                if character == "]" { inClass = false }
                result.append(character)
                classStart = false
                continue
            }
            switch character {
            case "[":
                inClass = true
                classStart = true
                result.append(character)
                // A negated class: the `^` belongs to the class, which still needs a member.
                var lookahead = characters
                if lookahead.next() == "^" {
                    _ = characters.next()
                    result.append("^")
                }
            case ".": result += "[^\\n\\r]"
            case "^", "$": result += "\\" + String(character)
            case "(":
                // A group is plain `( … )`; `(?…)` (lookaround, flags, names) is not I-Regexp.
                var lookahead = characters
                if lookahead.next() == "?" { return nil }
                result.append(character)
            default: result.append(character)
            }
        }
        return inClass ? nil : result
    }

    /// An escape I-Regexp allows, as ICU writes it; nil for any other (`\d`, `\w`, `\b`, `\1`, …).
    private static func escape(_ character: Character, _ rest: inout String.Iterator) -> String? {
        switch character {
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}", "n", "r", "t":
            return "\\" + String(character)
        case "p", "P":
            // A Unicode property: `\p{L}`, `\P{Nd}`.
            guard rest.next() == "{" else { return nil }
            var name = ""
            while let next = rest.next() {
                if next == "}" { return name.isEmpty ? nil : "\\\(character){\(name)}" }
                guard next.isLetter else { return nil }
                name.append(next)
            }
            return nil
        default:
            return nil
        }
    }
}

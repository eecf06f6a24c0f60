/// How the help and the usage errors word lists, so every command says them the same way.
enum ListWording {
    /// `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// `'a', 'b'`, as a suggestion quotes names.
    static func quoted(_ words: [String]) -> String {
        words.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// The sentence with `(note; note)` placed before its closing full stop.
    static func appending(_ notes: [String], to sentence: String) -> String {
        guard !notes.isEmpty else { return sentence }
        let text = "(" + notes.joined(separator: "; ") + ")"
        guard sentence.hasSuffix(".") else { return sentence + " " + text }
        return String(sentence.dropLast()) + " " + text + "."
    }
}

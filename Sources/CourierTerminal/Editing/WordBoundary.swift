/// Where words start and end for word-wise cursor movement: letters, digits and `_` make words;
/// everything else (spaces, `/`, `?`, `&`, `=`, `.`) separates them, so Alt-← in a URL stops at
/// each path segment and query parameter.
enum WordBoundary {
    static func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// The start of the word before `index`.
    static func left(of index: Int, in characters: [Character]) -> Int {
        var i = min(index, characters.count)
        while i > 0, !isWord(characters[i - 1]) { i -= 1 }
        while i > 0, isWord(characters[i - 1]) { i -= 1 }
        return i
    }

    /// The end of the word after `index`.
    static func right(of index: Int, in characters: [Character]) -> Int {
        var i = max(0, index)
        while i < characters.count, !isWord(characters[i]) { i += 1 }
        while i < characters.count, isWord(characters[i]) { i += 1 }
        return i
    }
}

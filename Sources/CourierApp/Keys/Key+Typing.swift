import CourierTerminal

extension Key {
    /// The text a key types: a plain or shifted character, nothing for Ctrl or Alt chords.
    var typedText: String? {
        guard !ctrl, !alt, case .character(let character) = code else { return nil }
        return String(character)
    }

    /// The character a key types, as `typedText` but one character.
    var typedCharacter: Character? {
        guard !ctrl, !alt, case .character(let character) = code else { return nil }
        return character
    }
}

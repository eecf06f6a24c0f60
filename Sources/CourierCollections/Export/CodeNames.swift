import Foundation

/// Names made from names: a header, a variable or a JSON key turned into the identifiers of generated
/// code (`X-Api-Key` → `X_API_KEY`, `xApiKey`, `XApiKey`).
public enum CodeNames {
    /// The words of a name: accents dropped (`naïve` → `naive`), split at anything but ASCII letters and
    /// digits, at lower-to-upper case changes (`createdAt`), and before the last capital of a run of
    /// capitals (`URLPath` → `URL`, `Path`).
    public static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil))
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = []
        }
        for (index, character) in characters.enumerated() {
            guard character.isASCII, character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if let previous = current.last, character.isUppercase {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord = previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next.map { $0.isASCII && $0.isLowercase } == true)
                if startsWord { flush() }
            }
            current.append(character)
        }
        flush()
        return words
    }

    /// `UPPER_SNAKE_CASE`, for environment variables; `fallback` when the name has no word.
    public static func upperSnake(_ name: String, fallback: String = "SECRET") -> String {
        let result = words(name).map { $0.uppercased() }.joined(separator: "_")
        guard let first = result.first else { return fallback }
        return first.isNumber ? "_" + result : result
    }

    /// `lowerCamelCase`; `fallback` when the name has no word. May start with a digit: callers that need an
    /// identifier check.
    public static func lowerCamel(_ name: String, fallback: String = "value") -> String {
        let parts = words(name)
        guard let first = parts.first else { return fallback }
        // An all-capital first word is an acronym: `URL` → `url`, `IDs` → `ids`.
        return first.lowercased() + parts.dropFirst().map(capitalized).joined()
    }

    /// `UpperCamelCase`; `fallback` when the name has no word.
    public static func upperCamel(_ name: String, fallback: String = "Value") -> String {
        let parts = words(name)
        return parts.isEmpty ? fallback : parts.map(capitalized).joined()
    }

    /// The word with its first letter capital and the rest as written, except an all-capital word
    /// (`ID` → `Id`, so `userID` → `UserId` reads as two words).
    static func capitalized(_ word: String) -> String {
        let rest = word.dropFirst()
        let tail = rest.allSatisfy { !$0.isLowercase } ? rest.lowercased() : String(rest)
        return (word.first.map { String($0).uppercased() } ?? "") + tail
    }

    /// `name`, or `name2`, `name3`… the first that `taken` does not hold; the result is added to `taken`.
    public static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(name)\(number)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}

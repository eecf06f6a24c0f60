/// One HTTPie request item of `courier send`: a word after the URL whose separator says what it adds.
/// `X-Trace:abc` a header, `q==1` a query parameter, `name=Ada` a JSON string (a form field with `--form`),
/// `age:=3` raw JSON, `photo@./a.png` a file in a multipart form, `bio=@bio.txt` and `meta:=@meta.json` a
/// value read from a file (also `Name:@file` and `q==@file`). The earliest separator in the word wins, the
/// longest where several start at one place (`a:=1` is raw JSON, not a header `a` of `=1`); a backslash
/// makes the next character plain (`foo\==bar` is the field `foo=`).
struct RequestItem: Sendable, Hashable {
    enum Kind: Sendable, Hashable, CaseIterable {
        case header, query, field, json, file
        case headerFromFile, queryFromFile, fieldFromFile, jsonFromFile

        /// The separator that makes the kind.
        var separator: String {
            switch self {
            case .header: ":"
            case .query: "=="
            case .field: "="
            case .json: ":="
            case .file: "@"
            case .headerFromFile: ":@"
            case .queryFromFile: "==@"
            case .fieldFromFile: "=@"
            case .jsonFromFile: ":=@"
            }
        }

        /// Whether the item goes into the body, which makes the implied method POST.
        var isData: Bool { [.field, .json, .file, .fieldFromFile, .jsonFromFile].contains(self) }
    }

    var kind: Kind
    var name: String
    var value: String

    /// The separators longest first, so that at one position `:=@` wins over `:=` and `:`.
    private static let bySeparatorLength = Kind.allCases.sorted { $0.separator.count > $1.separator.count }
    /// The characters a backslash makes plain.
    private static let escapable: Set<Character> = [":", "=", "@", "\\"]

    /// The item the word spells, or nil when it has no separator or no name (a URL such as `:3000` or a
    /// method is not an item).
    init?(_ word: String) {
        let characters = Array(word)
        var index = 0
        while index < characters.count {
            if characters[index] == "\\" {
                index += 2
                continue
            }
            for kind in Self.bySeparatorLength {
                let separator = Array(kind.separator)
                guard characters[index...].starts(with: separator) else { continue }
                let name = Self.unescaped(characters[..<index])
                guard !name.isEmpty else { return nil }
                self.kind = kind
                self.name = name
                self.value = Self.unescaped(characters[(index + separator.count)...])
                return
            }
            index += 1
        }
        return nil
    }

    /// The text with `\:`, `\=`, `\@` and `\\` read as the plain character.
    private static func unescaped(_ characters: ArraySlice<Character>) -> String {
        var text = ""
        var index = characters.startIndex
        while index < characters.endIndex {
            let character = characters[index]
            if character == "\\", index + 1 < characters.endIndex, escapable.contains(characters[index + 1]) {
                text.append(characters[index + 1])
                index += 2
            } else {
                text.append(character)
                index += 1
            }
        }
        return text
    }
}

import Foundation

/// The text encodings a REST Client body may name after `<@` (`<@latin1 ./demo.xml`): the file is read in
/// that encoding, its variables substituted, and the text sent as UTF-8. Names are the ones Node.js and the
/// REST Client use, and the usual IANA spellings of the encodings Foundation knows; case, `-` and `_` do not
/// matter.
public enum BodyEncoding {
    /// Each Foundation encoding with the names it is written as.
    static let table: [(names: [String], encoding: String.Encoding)] = [
        (["utf8"], .utf8),
        (["latin1", "iso88591", "binary"], .isoLatin1),
        (["latin2", "iso88592"], .isoLatin2),
        (["ascii", "usascii"], .ascii),
        (["utf16le", "ucs2"], .utf16LittleEndian),
        (["utf16be"], .utf16BigEndian),
        (["utf16"], .utf16),
        (["utf32le"], .utf32LittleEndian),
        (["utf32be"], .utf32BigEndian),
        (["utf32"], .utf32),
        (["windows1250", "cp1250"], .windowsCP1250),
        (["windows1251", "cp1251"], .windowsCP1251),
        (["windows1252", "cp1252"], .windowsCP1252),
        (["windows1253", "cp1253"], .windowsCP1253),
        (["windows1254", "cp1254"], .windowsCP1254),
        (["macroman", "macintosh"], .macOSRoman),
        (["shiftjis", "sjis"], .shiftJIS),
        (["eucjp"], .japaneseEUC),
        (["iso2022jp"], .iso2022JP),
    ]

    /// The encoding `name` stands for, or nil when it names none Courier knows.
    public static func encoding(named name: String) -> String.Encoding? {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        return table.first { $0.names.contains(key) }?.encoding
    }

    /// One name of each encoding, for the error that lists them.
    public static var knownNames: [String] { table.map(\.names[0]) }
}

extension BodyTemplate {
    /// A body line that names a file: `< ./file` (sent as it is), `<@ ./file` (variables substituted) or
    /// `<@ENCODING ./file` (read in that encoding, then substituted); nil for any other line.
    public static func fileReference(_ trimmed: String) -> BodyTemplate? {
        if trimmed.hasPrefix("<@ ") {
            return .file(path: trimmed.dropFirst(3).trimmingBlanks, substituteVariables: true)
        }
        if trimmed.hasPrefix("< ") {
            return .file(path: trimmed.dropFirst(2).trimmingBlanks, substituteVariables: false)
        }
        guard trimmed.hasPrefix("<@"), let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return nil
        }
        let name = String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<space])
        let path = trimmed[space...].trimmingBlanks
        guard !path.isEmpty, !name.isEmpty,
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        return .encodedFile(path: path, encoding: name)
    }

    /// The line that writes this body when it names a file; nil for text and no body.
    public var fileReferenceLine: String? {
        switch self {
        case .none, .text: nil
        case .file(let path, let substitute): (substitute ? "<@ " : "< ") + path
        case .encodedFile(let path, let encoding): "<@\(encoding) \(path)"
        }
    }
}

import Foundation

/// Swift's reserved words and the names generated Swift must not take.
enum SwiftNames {
    /// Words a property may use only in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "async", "some", "any", "consume", "borrowing", "consuming", "copy", "discard", "each", "macro", "package",
        "Type", "Protocol",
    ]

    /// Words that backticks do not make a usable stored property: `self`, `Self`, `init`, `Type`…
    static let unusable: Set<String> = ["self", "Self", "init", "super", "Type", "Protocol", "deinit", "subscript"]

    /// Type names a model must not take: they would hide the standard library's and Foundation's types,
    /// and the generated code's own.
    static let takenTypeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "CodingKey", "CodingKeys", "Data", "Date",
        "Decimal", "Decodable", "Dictionary", "Double", "Encodable", "Error", "Float", "Int", "Never", "Optional",
        "Result", "Sendable", "Set", "String", "Substring", "Type", "Self", "URL", "URLRequest", "URLSession",
        "URLComponents", "URLQueryItem", "UUID", "Void", "JSONValue", "API", "APIError", "JSONDecoder",
        "JSONEncoder", "HTTPURLResponse", "URLError", "DecodingError", "Foundation", "FoundationNetworking",
        "ProcessInfo", "FileHandle", "Protocol", "Task", "Equatable", "Hashable",
    ]

    /// Whether `word` is reserved.
    static func isKeyword(_ word: String) -> Bool { keywords.contains(word) }

    /// `name` as written in code: backticks around a keyword.
    static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }
}

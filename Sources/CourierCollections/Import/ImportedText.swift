import CourierHTTP
import Foundation

/// Text an importer takes from a Postman collection, an OpenAPI description or a curl command, kept as
/// what it is: data, or a variable the source means (`{{token}}` in a Postman URL). `ImportWriter` writes
/// the data so that it reads back as the same data, never as `.http` syntax and never as a variable.
public struct ImportedText: Sendable, Hashable, CustomStringConvertible {
    /// A run of data, or one variable reference.
    public enum Piece: Sendable, Hashable {
        case data(String)
        /// A `{{name}}` the source means, written as such: a plain name or a dynamic variable.
        case variable(String)
    }

    public private(set) var pieces: [Piece]

    /// Text made of `pieces`; neighbouring data runs are merged.
    public init(_ pieces: [Piece] = []) {
        self.pieces = []
        for piece in pieces { append(piece) }
    }

    /// The same JSON text with LF line ends and no trailing white space: a collection exported on Windows has
    /// CRLF between the tokens of its JSON bodies, which means nothing to JSON (a string cannot hold a raw line
    /// break), yet would keep the body out of its block, in a side file.
    public var jsonLineEnds: ImportedText {
        var pieces = pieces.map { piece -> Piece in
            guard case .data(let text) = piece else { return piece }
            return .data(text.replacingOccurrences(of: "\r\n", with: "\n"))
        }
        if case .data(let last)? = pieces.last {
            var scalars = last.unicodeScalars[...]
            while let end = scalars.last, end == " " || end == "\t" || end == "\n" || end == "\r" { scalars = scalars.dropLast() }
            pieces[pieces.count - 1] = .data(String(String.UnicodeScalarView(scalars)))
        }
        return ImportedText(pieces)
    }

    /// Text that is all data: a `{{` in it is two braces, not a variable.
    public static func data(_ text: String) -> ImportedText { ImportedText([.data(text)]) }

    /// One variable reference, `{{name}}`, that the importer itself defines.
    public static func variable(_ name: String) -> ImportedText { ImportedText([.variable(name)]) }

    /// Text from a source whose `{{name}}` is a variable (a Postman collection, a curl command). A
    /// reference stays a variable when `.http` reads it the same way: a plain name or a dynamic variable
    /// such as `{{$guid}}` or `{{$randomEmail}}`. Anything else between braces (`{{$processEnv HOME}}`,
    /// `{{$dotenv KEY}}`, `{{login.response.body.token}}`) means nothing in the source, so it is data:
    /// written as a variable it would read the process environment, a file or another response.
    public init(template text: String) {
        self.init()
        var rest = Substring(text)
        // Braces are paired as the interpolator pairs them: the first `{{`, then the first `}}` after it.
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let expression = String(rest[open.upperBound..<close.lowerBound]).trimmingBlanks
            append(.data(String(rest[..<open.lowerBound])))
            if Self.isSourceVariable(expression) {
                append(.variable(expression))
            } else {
                append(.data(String(rest[open.lowerBound..<close.upperBound])))
            }
            rest = rest[close.upperBound...]
        }
        append(.data(String(rest)))
    }

    /// Whether `{{expression}}` in a source is a variable `.http` reads the same way: a name of letters,
    /// digits, `_`, `-` and `.` that is not a request or response reference, or `$` and a word (Postman's
    /// and the JetBrains client's dynamic variables without arguments, none of which reads outside the
    /// request).
    public static func isSourceVariable(_ expression: String) -> Bool {
        guard let first = expression.unicodeScalars.first else { return false }
        if first == "$" {
            let word = expression.unicodeScalars.dropFirst()
            return word.first.map { $0.properties.isAlphabetic && $0.isASCII } == true
                && word.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
        return expression.allSatisfy(HTTPFileParser.isVariableNameCharacter) && !ResponseStore.isReference(expression)
    }

    public static func + (lhs: ImportedText, rhs: ImportedText) -> ImportedText {
        var result = lhs
        for piece in rhs.pieces { result.append(piece) }
        return result
    }

    public static func += (lhs: inout ImportedText, rhs: ImportedText) { lhs = lhs + rhs }

    public var isEmpty: Bool { pieces.isEmpty }

    /// Whether any piece is a variable.
    public var hasVariables: Bool { pieces.contains { if case .variable = $0 { true } else { false } } }

    /// The names of the variables, in order.
    public var variableNames: [String] {
        pieces.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    /// The data with each variable as `{{name}}`: for notes and comparisons, never for writing.
    public var description: String {
        pieces.map { piece in
            switch piece {
            case .data(let text): text
            case .variable(let name): "{{\(name)}}"
            }
        }.joined()
    }

    /// The data form-encoded (RFC 3986 unreserved characters kept) for a query or a URL-encoded body; the
    /// variables stay as they are, so they still resolve (and are encoded when they are).
    public var formEncoded: ImportedText {
        mapData { $0.addingPercentEncoding(withAllowedCharacters: URLBuilder.unreserved) ?? $0 }
    }

    /// Each data run changed by `transform`; the variables stay.
    public func mapData(_ transform: (String) -> String) -> ImportedText {
        ImportedText(pieces.map { piece in
            if case .data(let text) = piece { return .data(transform(text)) }
            return piece
        })
    }

    private mutating func append(_ piece: Piece) {
        guard case .data(let text) = piece else { pieces.append(piece); return }
        guard !text.isEmpty else { return }
        if case .data(let previous)? = pieces.last {
            pieces[pieces.count - 1] = .data(previous + text)
        } else {
            pieces.append(piece)
        }
    }
}

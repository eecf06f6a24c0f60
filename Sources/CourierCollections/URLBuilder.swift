import Foundation

/// Builds a URL from expanded pieces with URLComponents. Text written in the file is taken as URL
/// syntax (a `+` or `%20` means what it says); a substituted value in the query is data, so its `+`, `&`,
/// `=` and spaces are percent-encoded and cannot change the query's shape.
enum URLBuilder {
    /// Characters a query name or value from a variable keeps as they are: RFC 3986 unreserved.
    static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// Characters written text may use as they are before the query; anything else (spaces, quotes,
    /// non-ASCII) is encoded.
    static let allowedLiteral = unreserved.union(CharacterSet(charactersIn: ":/?#[]@!$&'()*+,;="))
    /// Characters a query or fragment may hold as they are (RFC 3986 section 3.4: pchar, "/" and "?").
    static let allowedInQuery = unreserved.union(CharacterSet(charactersIn: ":/?@!$&'()*+,;="))

    /// Percent-encodes what `allowed` lacks, keeping `%XX` escapes that are already there; a `%` not
    /// followed by two hex digits is encoded, since URLComponents rejects it.
    static func encode(_ text: String, allowed: CharacterSet) -> String {
        var result = ""
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%", index + 2 < scalars.count,
               scalars[index + 1].properties.isASCIIHexDigit, scalars[index + 2].properties.isASCIIHexDigit {
                result += "%"
            } else if scalar != "%" && allowed.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { result += String(format: "%%%02X", byte) }
            }
            index += 1
        }
        return result
    }

    /// The URL, or nil when the result is not an absolute http(s)/ws(s) URL.
    static func build(_ pieces: [Interpolator.Piece]) -> URL? {
        // Everything before the first literal `?` is scheme, host and path.
        var head = ""
        var queryPieces: [Interpolator.Piece] = []
        var inQuery = false
        for piece in pieces {
            if inQuery { queryPieces.append(piece); continue }
            switch piece {
            case .value(let value): head += value
            case .literal(let text):
                if let mark = text.firstIndex(of: "?") {
                    head += text[..<mark]
                    queryPieces.append(.literal(String(text[text.index(after: mark)...])))
                    inQuery = true
                } else {
                    head += text
                }
            }
        }
        var fragment: String?
        var query = queryPieces.isEmpty ? nil : encodeQuery(queryPieces, fragment: &fragment)
        // A variable that held a whole URL brings its own query, already in URL syntax.
        if let mark = head.firstIndex(of: "?") {
            let own = String(head[head.index(after: mark)...])
            head = String(head[..<mark])
            query = [own, query].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        }
        if let hash = head.firstIndex(of: "#") {
            fragment = String(head[head.index(after: hash)...])
            head = String(head[..<hash])
        }
        if !head.contains("://") { head = "http://" + head }
        guard var components = URLComponents(string: encode(head, allowed: allowedLiteral)),
              let scheme = components.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme),
              let host = components.host, !host.isEmpty else { return nil }
        if let query { components.percentEncodedQuery = encode(query, allowed: allowedInQuery) }
        if let fragment { components.percentEncodedFragment = encode(fragment, allowed: allowedInQuery) }
        return components.url
    }

    /// Encodes the query pieces: literals keep their syntax, values are encoded as data.
    private static func encodeQuery(_ pieces: [Interpolator.Piece], fragment: inout String?) -> String {
        var query = ""
        for (position, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let text):
                if let hash = text.firstIndex(of: "#") {
                    query += encode(String(text[..<hash]), allowed: allowedInQuery)
                    let rest = pieces[(position + 1)...].map(\.text).joined()
                    fragment = String(text[text.index(after: hash)...]) + rest
                    return query
                }
                query += encode(text, allowed: allowedInQuery)
            case .value(let value):
                query += value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            }
        }
        return query
    }
}

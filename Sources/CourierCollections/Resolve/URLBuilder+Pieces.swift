import CourierHTTP
import Foundation
import Synchronization

/// Building a URL from a `.http` file's expanded pieces. Text written in the file is taken as URL syntax
/// (a `+` or `%20` means what it says); a substituted value in the query is data, so its `+`, `&`, `=`
/// and spaces are percent-encoded and cannot change the query's shape.
extension URLBuilder {
    /// The URL, or nil when the result is not an absolute http(s)/ws(s) URL.
    static func build(_ pieces: [Interpolator.Piece]) -> URL? {
        guard pieces.count == 1, case .literal(let text) = pieces[0] else { return assembled(pieces) }
        if let url = lastLiteral.withLock({ $0?.text == text ? $0?.url : nil }) { return url }
        guard let url = assembled(pieces) else { return nil }
        lastLiteral.withLock { $0 = (text, url) }
        return url
    }

    /// The last URL built from text without variables, and that text: the URL is a function of the text alone,
    /// and a run of many requests to one URL (a load test's file) parsed it again for each.
    private static let lastLiteral = Mutex<(text: String, url: URL)?>(nil)

    /// `build` without the memory of the last URL.
    private static func assembled(_ pieces: [Interpolator.Piece]) -> URL? {
        // Everything before the first literal `?` is scheme, host and path.
        var head = ""
        var queryPieces: [Interpolator.Piece] = []
        var inQuery = false
        for piece in pieces {
            if inQuery { queryPieces.append(piece); continue }
            switch piece {
            case .value(let value): head += value
            case .literal(let text):
                // A byte search (the Character search is slower), once per piece of every request a run sends.
                if let mark = text.utf8.firstIndex(of: UInt8(ascii: "?")) {
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
        if let mark = head.utf8.firstIndex(of: UInt8(ascii: "?")) {
            let own = String(head[head.index(after: mark)...])
            head = String(head[..<mark])
            query = [own, query].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        }
        if let hash = head.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(head[head.index(after: hash)...])
            head = String(head[..<hash])
        }
        return assemble(head: head, query: query, fragment: fragment)
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

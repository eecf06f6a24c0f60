import Foundation

/// Builds request URLs with URLComponents, never by string concatenation: from a base and parts, from a
/// URL as the user typed it (`courier send`), and (in CourierCollections) from a `.http` file's expanded
/// pieces. Typed text is URL syntax: a `%2B` or `+` means what it says and is never encoded twice.
public enum URLBuilder {
    /// Characters a query name or value from a variable keeps as they are: RFC 3986 unreserved.
    public static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// Characters written text may use as they are before the query; anything else (spaces, quotes,
    /// non-ASCII) is encoded.
    public static let allowedLiteral = unreserved.union(CharacterSet(charactersIn: ":/?#[]@!$&'()*+,;="))
    /// Characters a query or fragment may hold as they are (RFC 3986 section 3.4: pchar, "/" and "?").
    public static let allowedInQuery = unreserved.union(CharacterSet(charactersIn: ":/?@!$&'()*+,;="))

    /// Percent-encodes what `allowed` lacks, keeping `%XX` escapes that are already there; a `%` not
    /// followed by two hex digits is encoded, since URLComponents rejects it.
    public static func encode(_ text: String, allowed: CharacterSet) -> String {
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

    /// A URL as typed: `%XX` escapes kept, anything a URL cannot hold encoded once, http:// assumed
    /// without a scheme. Nil unless it is an absolute http(s)/ws(s) URL with a host.
    public static func url(typed text: String) -> URL? {
        var head = text
        var fragment: String?
        var query: String?
        if let hash = head.firstIndex(of: "#") {
            fragment = String(head[head.index(after: hash)...])
            head = String(head[..<hash])
        }
        if let mark = head.firstIndex(of: "?") {
            query = String(head[head.index(after: mark)...])
            head = String(head[..<mark])
        }
        return assemble(head: head, query: query, fragment: fragment)
    }

    /// The URL from scheme-host-path text, a query and a fragment, each encoded once (`encode`).
    public static func assemble(head: String, query: String?, fragment: String?) -> URL? {
        // A byte search: Foundation's `contains` goes through CFString, once per request a run sends.
        let head = head.utf8.firstRange(of: "://".utf8) != nil ? head : "http://" + head
        guard var components = URLComponents(string: encode(head, allowed: allowedLiteral)),
              let scheme = components.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme),
              // The encoded host: reading `host` decodes IDNA, which loads ICU's data for a check of emptiness.
              let host = components.percentEncodedHost, !host.isEmpty else { return nil }
        if let query { components.percentEncodedQuery = encode(query, allowed: allowedInQuery) }
        if let fragment { components.percentEncodedFragment = encode(fragment, allowed: allowedInQuery) }
        return components.url
    }

    /// `base` with `path` appended (one slash between) and `query` items added after any it has.
    /// A `+` in a name or value is sent as `%2B`: URLComponents leaves it alone, and servers read a
    /// literal `+` in a query as a space.
    public static func url(_ base: URL, path: String = "", query: [(name: String, value: String?)] = []) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        if !path.isEmpty {
            let head = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            let tail = path.hasPrefix("/") ? String(path.dropFirst()) : path
            components.path = head + "/" + tail
        }
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query.map { URLQueryItem(name: $0.name, value: $0.value) }
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        return components.url
    }
}

import Foundation

/// Builds request URLs with URLComponents, never by string concatenation: from a base and parts, from a
/// URL as the user typed it (`courier send`), and (in CourierCollections) from a `.http` file's expanded
/// pieces. Typed text is URL syntax: a `%2B` or `+` means what it says and is never encoded twice.
public enum URLBuilder {
    /// Characters a query name or value from a variable keeps as they are: RFC 3986 unreserved.
    public static let unreserved = CharacterSet(charactersIn: unreservedCharacters)
    /// Characters written text may use as they are before the query; anything else (spaces, quotes,
    /// non-ASCII) is encoded.
    public static let allowedLiteral = unreserved.union(CharacterSet(charactersIn: literalDelimiters))
    /// Characters a query or fragment may hold as they are (RFC 3986 section 3.4: pchar, "/" and "?").
    public static let allowedInQuery = unreserved.union(CharacterSet(charactersIn: queryDelimiters))

    private static let unreservedCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    private static let literalDelimiters = ":/?#[]@!$&'()*+,;="
    private static let queryDelimiters = ":/?@!$&'()*+,;="

    /// Percent-encodes what `allowed` lacks, keeping `%XX` escapes that are already there; a `%` not
    /// followed by two hex digits is encoded, since URLComponents rejects it.
    public static func encode(_ text: String, allowed: CharacterSet) -> String {
        encode(text, allowed: allowed, ascii: nil)
    }

    /// `encode` with `allowed`'s ASCII members as a byte table: text of those bytes alone (nearly every URL a
    /// run sends) is returned as it is, without a CharacterSet lookup per scalar.
    static func encode(_ text: String, allowed: CharacterSet, ascii: [Bool]?) -> String {
        if let ascii, text.utf8.allSatisfy({ $0 < 0x80 && ascii[Int($0)] }) { return text }
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
        // A byte search: Foundation's `contains` goes through CFString, and the generic `firstRange(of:)` is
        // slower still; this runs once per request a run sends.
        let head = hasSchemeSeparator(head) ? head : "http://" + head
        if let url = plain(head: head, query: query, fragment: fragment) { return url }
        guard var components = URLComponents(string: encode(head, allowed: allowedLiteral, ascii: literalASCII)),
              let scheme = components.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme),
              // The encoded host: reading `host` decodes IDNA, which loads ICU's data for a check of emptiness.
              let host = components.percentEncodedHost, !host.isEmpty else { return nil }
        if let query { components.percentEncodedQuery = encode(query, allowed: allowedInQuery, ascii: queryASCII) }
        if let fragment {
            components.percentEncodedFragment = encode(fragment, allowed: allowedInQuery, ascii: queryASCII)
        }
        return components.url
    }

    /// The URL when nothing needs encoding (nearly every URL a run sends): the text as it is, parsed once
    /// rather than split into components and put together again. Nil leaves it to URLComponents.
    private static func plain(head: String, query: String?, fragment: String?) -> URL? {
        func plain(_ text: String, _ table: [Bool]) -> Bool { text.utf8.allSatisfy { $0 < 0x80 && table[Int($0)] } }
        guard plain(head, plainHeadASCII), query.map({ plain($0, queryASCII) }) ?? true,
              fragment.map({ plain($0, queryASCII) }) ?? true else { return nil }
        var text = head
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        guard let url = URL(string: text), let scheme = url.scheme, isWebScheme(scheme),
              let host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
        return url
    }

    /// Whether `scheme` is http, https, ws or wss in any case; as written (lower case) without making a String.
    private static func isWebScheme(_ scheme: String) -> Bool {
        switch scheme {
        case "http", "https", "ws", "wss": true
        default: ["http", "https", "ws", "wss"].contains(scheme.lowercased())
        }
    }

    /// Whether `text` holds `://`.
    private static func hasSchemeSeparator(_ text: String) -> Bool {
        var last: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "/") && last == (UInt8(ascii: ":"), UInt8(ascii: "/")) { return true }
            last = (last.1, byte)
        }
        return false
    }

    /// The ASCII bytes of `members` as a table (`%` never: it is checked for an escape after it). Built from
    /// the characters, not by asking the CharacterSet: that cost every one-shot send 0.05 ms.
    private static func asciiTable(_ members: String...) -> [Bool] {
        var table = [Bool](repeating: false, count: 128)
        for member in members {
            for byte in member.utf8 where byte < 0x80 && byte != 0x25 { table[Int(byte)] = true }
        }
        return table
    }

    private static let literalASCII = asciiTable(unreservedCharacters, literalDelimiters)
    private static let queryASCII = asciiTable(unreservedCharacters, queryDelimiters)
    /// What a plain head holds: no `?` or `#`, which would start a query or fragment of its own.
    private static let plainHeadASCII = literalASCII.indices.map {
        literalASCII[$0] && $0 != Int(UInt8(ascii: "?")) && $0 != Int(UInt8(ascii: "#"))
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

import CourierMessage

/// The directives of a Cache-Control field (RFC 9111 section 5.2), parsed leniently: names are
/// case-insensitive, arguments may be tokens or quoted strings, unknown directives are kept but
/// ignored, and malformed elements are skipped rather than failing the whole field.
public struct CacheControl: Sendable, Hashable {
    /// One directive as written: a lower-cased name and its argument, unquoted, when it had one.
    public struct Directive: Sendable, Hashable {
        public var name: String
        public var argument: String?
        /// A directive from its parts; `name` should be lower-cased.
        public init(name: String, argument: String? = nil) { self.name = name; self.argument = argument }
    }

    /// Every directive in order, duplicates included.
    public private(set) var directives: [Directive]

    /// The largest delta-seconds a cache must represent; larger values are clamped to it (RFC 9111 1.2.2).
    public static let maxDeltaSeconds = 2_147_483_648

    /// A field from directives already parsed.
    public init(_ directives: [Directive] = []) { self.directives = directives }

    /// Parses one or more Cache-Control field values (already combined with commas or not).
    public init(parsing value: String) {
        directives = Self.split(value).compactMap(Self.directive)
    }

    /// The combined Cache-Control fields of `headers`, or nil when there are none.
    public init?(headers: HTTPHeaders) {
        guard let value = headers.combined("Cache-Control") else { return nil }
        self.init(parsing: value)
    }

    public var isEmpty: Bool { directives.isEmpty }

    /// Whether the directive is present, with or without an argument.
    public func has(_ name: String) -> Bool { directives.contains { $0.name == name } }

    // MARK: - Typed directives

    /// A delta-seconds directive. Duplicates that disagree, and arguments that are not a number,
    /// give `.invalid`: RFC 9111 section 4.2.1 lets a cache treat such a response as stale.
    public enum Seconds: Sendable, Hashable {
        case absent
        case value(Int)
        case invalid
    }

    /// The delta-seconds argument of directive `name`.
    public func seconds(_ name: String) -> Seconds {
        let found = directives.filter { $0.name == name }
        guard !found.isEmpty else { return .absent }
        let parsed = found.map { Self.deltaSeconds($0.argument) }
        guard let first = parsed.first, let value = first, parsed.allSatisfy({ $0 == value }) else {
            return .invalid
        }
        return .value(value)
    }

    public var maxAge: Seconds { seconds("max-age") }
    public var noStore: Bool { has("no-store") }
    public var mustRevalidate: Bool { has("must-revalidate") || has("proxy-revalidate") }
    public var isPublic: Bool { has("public") }
    public var isPrivate: Bool { has("private") }
    public var onlyIfCached: Bool { has("only-if-cached") }
    /// `immutable` (RFC 8246): the response will not change while it is fresh.
    public var immutable: Bool { has("immutable") }
    /// `must-understand`: store only when the status code's caching rules are understood, and then
    /// despite `no-store` (RFC 9111 section 5.2.2.3).
    public var mustUnderstand: Bool { has("must-understand") }
    public var minFresh: Seconds { seconds("min-fresh") }
    /// `stale-if-error=N` (RFC 5861): how long past expiry a response may answer for a failing server.
    public var staleIfError: Seconds { seconds("stale-if-error") }
    /// `stale-while-revalidate=N` (RFC 5861): how long past expiry a response may be served while it is
    /// validated in the background.
    public var staleWhileRevalidate: Seconds { seconds("stale-while-revalidate") }

    /// `no-cache`: unqualified it forbids reuse without validation. The response form may name fields
    /// (`no-cache="Set-Cookie"`) that must not be reused without validation; the rest may be.
    public var noCache: NoCache? {
        let found = directives.filter { $0.name == "no-cache" }
        guard !found.isEmpty else { return nil }
        // Any unqualified occurrence wins: the most restrictive directive is honoured.
        if found.contains(where: { ($0.argument ?? "").isEmpty }) { return .all }
        let names = found.flatMap { Self.fieldNames($0.argument ?? "") }
        return names.isEmpty ? .all : .fields(names)
    }

    /// What a `no-cache` directive covers.
    public enum NoCache: Sendable, Hashable {
        case all
        case fields([String])
    }

    /// `max-stale` on a request: absent, any staleness (no argument), or a limit in seconds.
    /// An unreadable argument is read as no tolerance, the conservative choice.
    public var maxStale: MaxStale {
        let found = directives.filter { $0.name == "max-stale" }
        guard !found.isEmpty else { return .absent }
        if found.contains(where: { $0.argument == nil }) { return .any }
        switch seconds("max-stale") {
        case .value(let limit): return .limit(limit)
        case .absent, .invalid: return .limit(0)
        }
    }

    /// How much staleness a request accepts.
    public enum MaxStale: Sendable, Hashable {
        case absent
        case any
        case limit(Int)
    }

    // MARK: - Parsing

    /// Splits on commas that are outside quoted strings.
    static func split(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        var quoted = false
        var escaped = false
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        parts.append(value[start..<value.endIndex])
        return parts
    }

    /// One `name[=argument]` element; nil when the name is not a token.
    static func directive(_ element: Substring) -> Directive? {
        let trimmed = element.cacheTrimmingOWS()
        guard !trimmed.isEmpty else { return nil }
        let name: Substring
        var argument: String?
        if let equals = trimmed.firstIndex(of: "=") {
            name = trimmed[..<equals].cacheTrimmingOWS()
            argument = unquote(trimmed[trimmed.index(after: equals)...].cacheTrimmingOWS())
        } else {
            name = trimmed
        }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else { return nil }
        return Directive(name: name.lowercased(), argument: argument)
    }

    /// Removes the quotes and backslash escapes of a quoted-string; a token is returned as is.
    static func unquote(_ text: Substring) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return String(text) }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped { result.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            result.append(character)
        }
        return result
    }

    /// delta-seconds: 1*DIGIT, clamped to 2^31; nil when not digits.
    static func deltaSeconds(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let significant = text.drop { $0 == "0" }
        if significant.count > 10 { return maxDeltaSeconds }
        return min(Int(significant) ?? 0, maxDeltaSeconds)
    }

    /// The lower-cased field names of a comma-separated list.
    static func fieldNames(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.cacheTrimmingOWS().lowercased() }.filter { !$0.isEmpty }
    }

    /// tchar of RFC 9110 section 5.6.2.
    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }
}

extension CacheControl: CustomStringConvertible {
    public var description: String {
        directives.map { directive in
            guard let argument = directive.argument else { return directive.name }
            let isToken = !argument.isEmpty && argument.unicodeScalars.allSatisfy(Self.isTokenCharacter)
            return "\(directive.name)=" + (isToken ? argument : "\"\(argument)\"")
        }.joined(separator: ", ")
    }
}

extension Substring {
    /// Drops spaces and tabs (HTTP's optional whitespace) from both ends.
    func cacheTrimmingOWS() -> Substring {
        let slice = self
        guard let first = slice.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = slice.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return slice[slice.endIndex...] }
        return slice[first...last]
    }
}

extension String {
    /// Drops spaces and tabs (HTTP's optional whitespace) from both ends.
    func cacheTrimmingOWS() -> Substring { self[...].cacheTrimmingOWS() }
}

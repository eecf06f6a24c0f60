/// An HTTP request method. A struct rather than an enum so that any token the user types is valid.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public var description: String { rawValue }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")

    /// Methods whose repetition has the same effect as one call (RFC 9110 section 9.2.2), so a retry is safe.
    public static let idempotent: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, HTTPMethod("TRACE")]
    /// Methods that do not change server state (RFC 9110 section 9.2.1); anything else invalidates cache entries.
    public static let safe: Set<HTTPMethod> = [.get, .head, .options, HTTPMethod("TRACE")]

    public var isIdempotent: Bool { Self.idempotent.contains(self) }
    public var isSafe: Bool { Self.safe.contains(self) }
}

/// Which request the jar's cookies went with, and those cookies as `name=REDACTED`.
public struct RequestCookies: Sendable, Hashable {
    public var request: String
    public var lines: [String]
    public init(request: String, lines: [String]) { self.request = request; self.lines = lines }
}

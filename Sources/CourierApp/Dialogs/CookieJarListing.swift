/// The cookies of one environment's jar as the explorer lists them.
public struct CookieJarListing: Sendable, Hashable {
    public var environment: String
    public var lines: [String]
    public init(environment: String, lines: [String]) { self.environment = environment; self.lines = lines }
}

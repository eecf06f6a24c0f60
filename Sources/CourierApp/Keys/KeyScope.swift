/// Where a key means something: everywhere, or in one pane or view. config.json groups rebindings by scope,
/// and one key may mean one command per scope. Each pane names its own (`Pane.scope`).
public struct KeyScope: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The global keys, which work in every pane.
    public static let global = KeyScope("global")

    /// Every scope of the standard explorer: global first, then each pane's in the registry's order.
    public static var allCases: [KeyScope] { KeyTables.defaults.scopes }

    public var description: String { rawValue }
}

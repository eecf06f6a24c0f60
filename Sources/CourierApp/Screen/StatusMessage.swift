/// A line in the status bar that is not a key hint.
public struct StatusMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case info, success, error }
    public var text: String
    public var kind: Kind
    public init(_ text: String, kind: Kind = .info) { self.text = text; self.kind = kind }
}

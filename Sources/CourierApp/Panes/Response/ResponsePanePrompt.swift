/// The prompt open at the bottom of the pane.
public struct ResponsePanePrompt: Sendable, Hashable {
    /// The kinds of this value.
    public enum Kind: Sendable, Hashable { case search, filter, goToLine }
    public var kind: Kind
    public var text: String

    /// The prompt's leading label.
    public var label: String {
        switch kind {
        case .search: "/"
        case .filter: "JSONPath: "
        case .goToLine: "Line: "
        }
    }
}

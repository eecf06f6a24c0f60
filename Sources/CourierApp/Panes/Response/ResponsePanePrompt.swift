/// The prompt open at the bottom of the pane.
public struct ResponsePanePrompt: Sendable, Hashable {
    /// The kinds of this value.
    public enum Kind: Sendable, Hashable { case search, filter, goToLine }
    public var kind: Kind
    /// What is typed, edited as every prompt is.
    public var line: PromptLine

    public init(kind: Kind, text: String = "") {
        self.kind = kind
        line = PromptLine(text)
    }

    public var text: String { line.text }

    /// The prompt's leading label.
    public var label: String {
        switch kind {
        case .search: "/"
        case .filter: "JSONPath: "
        case .goToLine: "Line: "
        }
    }

    /// The history its entries are kept in.
    var historyKind: PromptHistory.Kind {
        switch kind {
        case .search: .search
        case .filter: .filter
        case .goToLine: .goToLine
        }
    }
}

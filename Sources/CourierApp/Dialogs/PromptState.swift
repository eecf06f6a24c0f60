import CourierTerminal

/// A one-line question with a text answer.
public struct PromptState: Sendable, Hashable {
    public enum Purpose: Sendable, Hashable {
        case newRequest(file: String)
        case rename(RequestRef)
        case saveResponse
        /// A `# @prompt NAME` value for the next send.
        case variable(name: String)
        case saveWebSocketMessages
    }
    public var title: String
    public var editor: LineEditor
    public var purpose: Purpose
    public init(title: String, text: String = "", purpose: Purpose) {
        self.title = title
        self.editor = LineEditor(text)
        self.purpose = purpose
    }
}

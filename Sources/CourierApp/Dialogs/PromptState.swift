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
        /// The passphrase of the environment's client certificate, kept for the session.
        case certificatePassphrase
        /// A curl command to add to `file` as a new request.
        case importCurl(file: String)
    }
    public var title: String
    /// The answer being typed, edited as every prompt is.
    public var line: PromptLine
    public var purpose: Purpose
    /// The answer is a secret: drawn as dots, never as typed.
    public var isSecret: Bool
    public init(title: String, text: String = "", purpose: Purpose, isSecret: Bool = false) {
        self.title = title
        line = PromptLine(text)
        self.purpose = purpose
        self.isSecret = isSecret
    }

    /// The answer's text editor, for drawing.
    public var editor: LineEditor { line.editor }

    /// The history the answers are kept in; none for secrets and `# @prompt` values, which may be secrets.
    var historyKind: PromptHistory.Kind? {
        switch purpose {
        case .newRequest, .rename: .requestName
        case .saveResponse, .saveWebSocketMessages: .fileName
        // A curl command may carry a token: kept nowhere.
        case .variable, .certificatePassphrase, .importCurl: nil
        }
    }
}

import CourierTerminal

/// A dialog over the panes; the top of the modal stack takes every key.
public enum Modal: Sendable, Hashable {
    case help(scroll: Int)
    case palette(PaletteState)
    case confirm(ConfirmState)
    case prompt(PromptState)
    /// Every problem of the loaded collection; `selection` is the highlighted one.
    case problems(selection: Int)
    /// A save refused because the file changed on disk: reload, overwrite, or see the difference.
    case saveConflict(SaveConflict)
    /// The environment's cookie jar, one cookie per line, values masked.
    case cookies(CookieJarListing, scroll: Int)
}

/// A save the file on disk refused, with what the user can do about it.
public struct SaveConflict: Sendable, Hashable {
    public var ref: RequestRef
    public var draft: RequestDraft
    public var message: String
    /// The line diff of the file on disk against what the save would write, once asked for.
    public var diff: [String]?
    public var scroll = 0
    public init(ref: RequestRef, draft: RequestDraft, message: String) {
        self.ref = ref
        self.draft = draft
        self.message = message
    }
}

/// The cookies of one environment's jar as the explorer lists them.
public struct CookieJarListing: Sendable, Hashable {
    public var environment: String
    public var lines: [String]
    public init(environment: String, lines: [String]) { self.environment = environment; self.lines = lines }
}

/// A yes/no question and what happens on yes.
public struct ConfirmState: Sendable, Hashable {
    public var message: String
    public var onYes: PendingAction
    public init(message: String, onYes: PendingAction) { self.message = message; self.onYes = onYes }
}

/// What a confirmation unlocks.
public enum PendingAction: Sendable, Hashable {
    case quit
    case deleteRequest(RequestRef)
    /// Turn live mode on for a method that is not idempotent.
    case enableLive
    /// Open another request, dropping unsaved edits.
    case openRequest(RequestRef)
}

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

/// The command palette: a filter over every action.
public struct PaletteState: Sendable, Hashable {
    public var filter: LineEditor
    public var selection = 0
    public init(filter: String = "") { self.filter = LineEditor(filter) }
}

/// A line in the status bar that is not a key hint.
public struct StatusMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case info, success, error }
    public var text: String
    public var kind: Kind
    public init(_ text: String, kind: Kind = .info) { self.text = text; self.kind = kind }
}

/// Commands that work whichever pane has focus.
public enum GlobalCommand: Sendable, Hashable {
    case focusNext, focusPrevious
    case focus(PaneID)
    case send, cancel, save
    case zoom, palette, help, quit, suspend
    /// Clears the terminal and draws everything again (Ctrl-L).
    case repaint
    case chooseEnvironment, chooseTheme
    /// Lists the environment's cookie jar.
    case cookieJar
    /// Opens the history pane over the open request's responses, or over every request's.
    case history, historyAll
    /// Lists every problem of the collection; reads the collection from disk again.
    case problems, reload
    /// Shows known secret values on screen for the session, or masks them again.
    case toggleSecrets
    /// Puts the open request back as its file has it (each field's undo still brings an edit back); drops
    /// every request's unsaved edits (asks first).
    case discardDraft, discardAllDrafts
}

import CourierCollections

/// Any command, so the palette can list and run all of them.
public enum AppCommand: Sendable, Hashable {
    case global(GlobalCommand)
    /// A command of a pane's keymap (its scope names the pane).
    case pane(PaneCommand)
    case theme(String)
    case environment(String?)
    /// Copies the open request as code in this language (the palette's "Copy as:" entries).
    case copyAsCode(CodeLanguage)
}

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

import CourierBody

/// What the app must do for a command; the pane itself touches no clipboard, file or network.
public enum ResponsePaneEffect: Sendable, Hashable {
    /// Put this text on the clipboard (the JSONPath under the cursor).
    case copy(String)
    /// Ask where to save the body, then write it.
    case saveBody
    /// The diff needs the previous response of this request: load it and call `compare(with:)`.
    case loadPrevious
    /// Search the lines on screen: give the search a generation, `begin` it and start its body job.
    case search(BodySearch)
    /// Filter the body: give the filter a generation, `begin` it and start its body job.
    case filter(BodyFilter)
    /// A jump waits for lines the pane's index job does not index: start `beginJumpIndexing`'s job.
    case indexForJump
}

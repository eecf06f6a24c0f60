import CourierCollections

/// What a confirmation unlocks.
public enum PendingAction: Sendable, Hashable {
    case quit
    case deleteRequest(RequestRef)
    /// Turn live mode on for a method that is not idempotent.
    case enableLive
    /// Open another request, dropping unsaved edits.
    case openRequest(RequestRef)
    /// Send the open request that is marked `# @note` (confirm before sending).
    case sendNoted
    /// Drop the unsaved edits of every request.
    case discardAllDrafts
    /// Let the collection read (or `>>!` replace) a file outside what it may touch, and send again.
    case allowFile(FileAccessRefusal.Access, String)
}

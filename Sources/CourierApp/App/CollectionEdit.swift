/// A change to a collection file other than saving an edited request.
public enum CollectionEdit: Sendable, Hashable {
    /// Append a new request to `file`.
    case add(file: String, RequestDraft)
    /// Insert a copy of the request right after it.
    case duplicate(RequestRef)
    case rename(RequestRef, to: String)
    case delete(RequestRef)
}

/// What can go wrong in CourierHistory, each case with what the user needs to act on it.
public enum HistoryError: Error, Sendable, Equatable {
    /// History could not be read or written.
    case unreadable(path: String, reason: String)
    /// No history entry has this identifier.
    case entryNotFound(id: String)
}

extension HistoryError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .unreadable(path, reason): "history at \(path): \(reason)"
        case let .entryNotFound(id): "no history entry '\(id)'"
        }
    }
}

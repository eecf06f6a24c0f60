/// Commands of the collection tree.
public enum CollectionCommand: KeyCommandName {
    case up, down, top, bottom, pageUp, pageDown
    case open, expand, collapse
    case filter, clearFilter
    case newRequest, duplicate, rename, delete
    /// A new request from a curl command.
    case importCurl
}

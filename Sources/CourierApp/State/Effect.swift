import CourierHTTP
import Foundation

/// Work `update` asks for. The effect runner performs it with the core and answers with actions.
public enum Effect: Sendable, Hashable {
    case loadCollection(path: String)
    /// Send now; the answer carries `generation`.
    case send(generation: Int, request: HTTPRequest)
    /// Send after the debounce through the cancel-previous queue: a newer submission replaces this one.
    case sendLive(generation: Int, request: HTTPRequest, debounce: Duration)
    /// Cancel the request in flight (the transfer is aborted).
    case cancelSend
    /// Write the edited request back into its file, changing only its own lines.
    case save(RequestRef, RequestDraft)
    case collectionEdit(CollectionEdit)
    /// Put text on the clipboard with OSC 52.
    case copyToClipboard(String)
    case writeFile(path: String, contents: Data)
    case loadTheme(name: String)
    case listThemes
    case connectWebSocket(url: String, headers: HTTPHeaders)
    case sendWebSocket(String)
    case closeWebSocket
}

/// A change to a collection file other than saving an edited request.
public enum CollectionEdit: Sendable, Hashable {
    /// Append a new request to `file`.
    case add(file: String, RequestDraft)
    /// Insert a copy of the request right after it.
    case duplicate(RequestRef)
    case rename(RequestRef, to: String)
    case delete(RequestRef)
}

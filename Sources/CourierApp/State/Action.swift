import CourierHTTP
import CourierTerminal

/// Everything that can happen to the explorer: input, time, and the results of effects.
public enum Action: Sendable {
    case input(InputEvent)
    /// Time passed while something on screen moves.
    case tick
    case collectionLoaded(Collection)
    case collectionFailed(String)
    /// The result of the send with this generation.
    case responseReceived(generation: Int, ResponseSummary)
    /// The response viewer's state for the response of this generation, built off the main thread.
    case responsePaneReady(generation: Int, ResponsePaneState)
    case sendFailed(generation: Int, SendFailure)
    case sendCancelled(generation: Int)
    /// A live-mode send began once its debounce ran out.
    case liveSendStarted(generation: Int, method: String, url: String)
    case clientEvent(ClientEvent)
    case webSocket(WebSocketUpdate)
    case saveFinished(RequestRef, Collection)
    /// A collection edit (save, new, rename, delete) failed; the message names the file.
    case collectionEditFailed(String)
    case collectionEdited(Collection, select: RequestRef?)
    case themeLoaded(Theme, warning: String?)
    case themesListed([String])
    /// A side effect finished with something to tell the user.
    case notice(StatusMessage)
}

/// What the WebSocket slot hears until the WebSocket component takes over.
public enum WebSocketUpdate: Sendable, Hashable {
    case connecting(url: String)
    case connected(url: String)
    case message(incoming: Bool, text: String)
    case closed(code: Int?, reason: String)
}

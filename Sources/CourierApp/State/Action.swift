import CourierHTTP
import CourierTerminal
import CourierWebSocket

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
    /// The compare view for the open request, or the result of revalidating it.
    case compareOpened(ComparePaneState)
    case compareRevalidated(CacheRevalidation?, failure: String?)
    /// A batch of WebSocket session events (one per frame at most).
    case webSocketEvents(WebSocketPaneBatch)
    case saveFinished(RequestRef, Collection)
    /// A collection edit (save, new, rename, delete) failed; the message names the file.
    case collectionEditFailed(String)
    case collectionEdited(Collection, select: RequestRef?)
    case themeLoaded(Theme, warning: String?)
    case themesListed([String])
    /// A response of the send with this generation was kept in history under `requestKey`; its recent latency.
    case historyRecorded(generation: Int, requestKey: String, latency: LatencyStats?)
    /// The history pane, loaded off the main loop, ready to show.
    case historyOpened(HistoryPaneState)
    /// A side effect finished with something to tell the user.
    case notice(StatusMessage)
}

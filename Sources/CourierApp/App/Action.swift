import CourierCollections
import CourierHTTP
import CourierMessage
import Foundation
import CourierTerminal
import CourierWebSocket

/// Everything that can happen to the explorer: input, time, and the results of effects.
public enum Action: Sendable {
    case input(InputEvent)
    /// Time passed while something on screen moves.
    case tick
    case collectionLoaded(Collection)
    /// The first requests of the collection at start-up, shown while the rest loads.
    case collectionStartLoaded(Collection)
    case collectionFailed(String)
    /// The scripts of a sent request ran (pre-request and response handlers): shown in the Log pane.
    case scriptsRan(RequestID, ScriptReport)
    /// The response of the send with this generation, as the Response pane's model, built off the main thread.
    case responsePaneReady(generation: Int, ResponsePaneState)
    case sendFailed(generation: Int, SendFailure)
    /// Secret values a send used or may quote (sent credentials, private environment values, secret
    /// globals): from now on the screen masks them. Posted before the result that could show them.
    case secretsLearned(Set<String>)
    case sendCancelled(generation: Int)
    /// The effect runner took the send with this generation; the client's events about it carry `id`.
    case sendStarted(generation: Int, id: RequestID)
    /// The body of the send with this generation is arriving (posted a few times a second at most).
    case sendProgress(generation: Int, TransferProgress)
    /// The head of request `id` as it went out, with the fields the transport added (User-Agent, Accept,
    /// Accept-Encoding): the Log shows these rather than the request's own.
    case requestHeadSent(RequestID, HTTPHeaders)
    /// A live-mode send began once its debounce ran out.
    case liveSendStarted(generation: Int, method: String, url: String)
    case clientEvent(ClientEvent)
    /// The HTTP cache answered a send while fresh, without a request: the Log shows it as its own row.
    case servedFromCache(RequestID, method: String, url: URL, status: Int, CacheReport)
    /// The compare view for the open request, or the result of revalidating it.
    case compareOpened(ComparePaneState)
    case compareRevalidated(CacheRevalidation?, failure: String?)
    /// A batch of WebSocket session events (one per frame at most).
    case webSocketEvents(WebSocketPaneBatch)
    /// The pane's request was resolved and its connection is opening; `unverifiedTLS` for `# @insecure` on wss.
    case webSocketResolved(unverifiedTLS: Bool, messages: [String]? = nil)
    /// The pane's request could not be resolved (unknown variable, missing file, passphrase needed).
    case webSocketUnresolved(SendFailure)
    /// Send `generation`'s GRPC request streams: its call goes on in the live pane (its events follow).
    case grpcCallLive(generation: Int)
    case saveFinished(RequestRef, Collection)
    /// A save found its file changed on disk since it was loaded; the user chooses what to do.
    case saveConflict(SaveConflict)
    /// The diff a save conflict asked for.
    case conflictDiffReady([String])
    /// A collection edit (save, new, rename, delete) failed; the message names the file.
    case collectionEditFailed(String)
    case collectionEdited(Collection, select: RequestRef?)
    case themeLoaded(Theme, warning: String?)
    case themesListed([String])
    /// The open request as a curl command (secrets masked), resolved off the loop thread for `copyAsCurl`.
    case curlCommandReady(String)
    /// The open request as code (secrets left out), resolved off the loop thread for `copyAsCode`.
    case codeReady(String, CodeLanguage)
    /// The cookie jar listing asked for with `listCookies`.
    case cookiesListed(CookieJarListing)
    /// The jar's cookies that go with the request just sent (values masked), for the Request pane.
    case requestCookies(request: String, lines: [String])
    /// A response of the send with this generation was kept in history under `requestKey`; its recent latency.
    case historyRecorded(generation: Int, requestKey: String, latency: LatencyStats?)
    /// The previous response of a request, read from history for `d`; nil when history has none.
    case previousResponseLoaded(requestKey: String, ResponsePaneState?)
    /// The history pane, loaded off the main loop, ready to show.
    case historyOpened(HistoryPaneState)
    /// What a `readHistory` effect found in the store, for the history pane.
    case historyRead(HistoryPaneRead.Result)
    /// A body job (search, filter, index, diff) got further or finished.
    case bodyJob(BodyJobReport)
    /// A side effect finished with something to tell the user.
    case notice(StatusMessage)
    /// Something for the pane of this scope alone (a pane added to the registry defines its own payloads);
    /// the pane's `update` takes it.
    case pane(KeyScope, any Sendable)
}

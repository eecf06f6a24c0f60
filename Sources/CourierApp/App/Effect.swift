import CourierCollections
import CourierHTTP
import CourierHistory
import Foundation

/// Work `update` asks for. The effect runner performs it with the core and answers with actions.
public enum Effect: Sendable, Hashable {
    case loadCollection(path: String)
    /// The start-up load: the first screen's requests first (`collectionStartLoaded`), then the whole
    /// collection (`collectionLoaded`), so the first frame never waits for a large collection.
    case loadCollectionInStages(path: String)
    /// Resolve and send now; the answer carries `generation`.
    case send(generation: Int, job: SendJob)
    /// Send after the debounce through the cancel-previous queue: a newer submission replaces this one.
    case sendLive(generation: Int, job: SendJob, debounce: Duration)
    /// Resolve the request and put it on the clipboard as a curl command.
    case copyAsCurl(SendJob)
    /// Resolve the request and put it on the clipboard as code in the language (`courier export`'s).
    case copyAsCode(SendJob, CodeLanguage)
    /// Cancel the request in flight (the transfer is aborted).
    case cancelSend
    /// Write the edited request back into its file, changing only its own lines.
    case save(RequestRef, RequestDraft)
    /// After a save conflict: apply the edit to the file as it now is on disk, and save.
    case overwrite(RequestRef, RequestDraft)
    /// After a save conflict: work out how the file on disk differs from what the save would write.
    case conflictDiff(RequestRef, RequestDraft)
    case collectionEdit(CollectionEdit)
    /// Put text on the clipboard with OSC 52.
    case copyToClipboard(String)
    case writeFile(path: String, contents: Data)
    case loadTheme(name: String)
    case listThemes
    /// Reads the environment's cookie jar and answers with `cookiesListed`.
    case listCookies(environment: String?)
    /// Open the cache compare view for the request (the cache's last validation of it).
    case openCompare(SendJob)
    /// Send the conditional request for the stored response now and compare.
    case revalidate(SendJob)
    /// What the WebSocket pane asked for: connect, send, disconnect.
    case webSocket(WebSocketPaneEffect)
    /// Connect the WebSocket pane as the job's request says: resolved (variables, headers, cookies, TLS
    /// settings) off the loop thread, then opened with the request's messages at the positions `subscriptions`
    /// sent after every (re)connect, as the send path resolved them (values from secret stores included).
    case webSocketConnect(job: SendJob, subscriptions: [Int])
    /// Keep an ended WebSocket connection or gRPC call in history: `body` is its messages as NDJSON, and known
    /// `secrets` are masked in what is written.
    case recordStream(HistoryEntry, body: Data, secrets: Set<String>)
    /// Read from history the response before the shown one of `requestKey` (the newest entry is the
    /// shown response when `skipNewest`), for `d` when this session has none.
    case loadPreviousResponse(requestKey: String, skipNewest: Bool)
    /// Open the history pane over every request's responses (nil), or over one request key's.
    case openHistory(requestKey: String?)
    /// Read what the history pane asked for from the store; the answer is `.historyRead`.
    case readHistory(HistoryPaneRead)
    /// Search, filter, index or diff response bodies in the background; reports come back as `.bodyJob` actions.
    case bodyJob(BodyJob)
    /// Stop the body job of this generation (a newer search replaced it, Esc, or its pane went away).
    case cancelBodyJob(generation: Int)
}

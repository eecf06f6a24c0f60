import CourierBody
import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// Performs effects with the client core and the collections, and posts the results back as actions.
/// Nothing here blocks the run loop: the network and the disk are reached from tasks.
public final class EffectRunner: Sendable {
    /// What the runner is built from; tests swap the transport and the clipboard.
    public struct Configuration: Sendable {
        public var transport: any Transport
        public var themeFolders: [URL]
        public var trueColor: Bool
        public var noColor: Bool
        /// Writes the clipboard; the default sends OSC 52 to the terminal.
        public var clipboard: @Sendable (String) -> Void
        /// The HTTP cache in the pipeline, which the compare view reads; nil sends everything to the network.
        public var cache: HTTPCacheMiddleware?
        /// Where every finished response is recorded (the explorer passes the XDG default); nil keeps no history.
        public var historyDirectory: URL?

        public init(transport: any Transport, themeFolders: [URL], trueColor: Bool = false, noColor: Bool = false,
                    cache: HTTPCacheMiddleware? = nil, historyDirectory: URL? = nil,
                    clipboard: @escaping @Sendable (String) -> Void = Clipboard.osc52) {
            self.transport = transport
            self.historyDirectory = historyDirectory
            self.cache = cache
            self.themeFolders = themeFolders
            self.trueColor = trueColor
            self.noColor = noColor
            self.clipboard = clipboard
        }
    }

    /// One submission in flight: the explorer's generation and the request id its log rows carry.
    private struct Submission {
        var generation: Int
        var id: RequestID
    }

    public let store: CollectionStore
    /// The response history the runner records into and the history pane reads; nil when it is off.
    public let history: HistoryStore?
    private let configuration: Configuration
    private let queue: ActionQueue
    private let client: HTTPClient
    private let submissions = Mutex<[UInt64: Submission]>([:])
    /// Generations the user cancelled, so their end is not logged as superseded.
    private let userCancelled = Mutex<Set<Int>>([])
    private let immediate: Mutex<LatestOnly<ResponseResult>?> = Mutex(nil)
    private let live: Mutex<LatestOnly<ResponseResult>?> = Mutex(nil)
    private let liveDebounce = Mutex<Duration?>(nil)
    /// Indexes the newest response's body in the background, so `G` and search reach the end of a large
    /// body without waiting; the previous response's indexing is cancelled.
    private let indexing = Mutex<Task<Void, Never>?>(nil)
    /// The WebSocket pane's session, batching its events into one action per frame.
    private let webSocket: WebSocketPaneConnector

    public init(configuration: Configuration, queue: ActionQueue, store: CollectionStore = CollectionStore()) {
        self.configuration = configuration
        self.queue = queue
        self.store = store
        history = configuration.historyDirectory.map { HistoryStore(directory: $0) }
        let events = EventSink { [queue] event in queue.post(.clientEvent(event)) }
        client = HTTPClient(configuration: HTTPClient.Configuration(transport: configuration.transport,
                                                            cache: configuration.cache, events: events))
        webSocket = WebSocketPaneConnector { [queue] events in queue.post(.webSocketEvents(events)) }
        immediate.withLock { $0 = makeLatestOnly(debounce: .zero) }
    }

    /// Starts every effect; results arrive later through the queue.
    public func perform(_ effects: [Effect]) {
        for effect in effects { perform(effect) }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .loadCollection(let path):
            background { [store, queue] in
                let (collection, problems) = store.load(path)
                queue.post(.collectionLoaded(collection))
                if let first = problems.first {
                    let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
                    queue.post(.notice(StatusMessage(first + more, kind: .error)))
                }
            }
        case .send(let generation, let job):
            live.withLock { $0?.cancel() }
            submit(job, generation: generation, through: immediate.withLock { $0 })
        case .sendLive(let generation, let job, let debounce):
            let queueForLive = live.withLock { current -> LatestOnly<ResponseResult>? in
                if current == nil || liveDebounce.withLock({ $0 }) != debounce {
                    current?.cancel()
                    current = makeLatestOnly(debounce: debounce)
                    liveDebounce.withLock { $0 = debounce }
                }
                return current
            }
            immediate.withLock { $0?.cancel() }
            submit(job, generation: generation, through: queueForLive)
        case .cancelSend:
            let generations = submissions.withLock { $0.values.map(\.generation) }
            userCancelled.withLock { $0.formUnion(generations) }
            immediate.withLock { $0?.cancel() }
            live.withLock { $0?.cancel() }
        case .save(let ref, let draft):
            background { [store, queue] in
                do {
                    queue.post(.saveFinished(ref, try store.save(ref, draft)))
                } catch {
                    queue.post(.collectionEditFailed("Not saved: \(error)"))
                }
            }
        case .collectionEdit(let edit):
            background { [store, queue] in
                do {
                    let (collection, select) = try store.apply(edit)
                    queue.post(.collectionEdited(collection, select: select))
                } catch {
                    queue.post(.collectionEditFailed("\(error)"))
                }
            }
        case .copyToClipboard(let text):
            configuration.clipboard(text)
        case .copyAsCurl(let job):
            do {
                // The one exporter: secrets masked (the secret policy), file bodies kept as @FILE.
                let resolved = try store.resolveWithSecrets(job)
                configuration.clipboard(CurlExporter.command(for: resolved.request, secrets: resolved.secrets))
                queue.post(.notice(StatusMessage("Copied the request as a curl command", kind: .success)))
            } catch {
                queue.post(.notice(StatusMessage("\(error)", kind: .error)))
            }
        case .writeFile(let path, let contents):
            background { [queue] in
                do {
                    try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
                    queue.post(.notice(StatusMessage("Saved \(contents.count) bytes to \(path)", kind: .success)))
                } catch {
                    queue.post(.notice(StatusMessage("Cannot write \(path): \(error.localizedDescription)", kind: .error)))
                }
            }
        case .loadTheme(let name):
            let configuration = self.configuration
            background { [queue] in
                let (theme, warning) = ThemeLoader.load(name: name, folders: configuration.themeFolders,
                                                        trueColor: configuration.trueColor,
                                                        noColor: configuration.noColor)
                queue.post(.themeLoaded(theme, warning: warning))
            }
        case .listThemes:
            let folders = configuration.themeFolders
            background { [queue] in queue.post(.themesListed(ThemeLoader.names(in: folders))) }
        case .openCompare(let job):
            guard let cache = configuration.cache else {
                queue.post(.notice(StatusMessage("The HTTP cache is off, so there is nothing to compare", kind: .error)))
                return
            }
            do {
                queue.post(.compareOpened(ComparePaneState(request: try store.resolve(job).0, cache: cache)))
            } catch {
                queue.post(.notice(StatusMessage("\(error)", kind: .error)))
            }
        case .revalidate(let job):
            guard let cache = configuration.cache else { return }
            let transport = configuration.transport
            let queue = self.queue
            do {
                let request = try store.resolve(job).0
                Task.detached {
                    switch await ComparePaneState.revalidate(request, cache: cache, transport: transport) {
                    case .success(let revalidation): queue.post(.compareRevalidated(revalidation, failure: nil))
                    case .failure(let error): queue.post(.compareRevalidated(nil, failure: "\(error)"))
                    }
                }
            } catch {
                queue.post(.compareRevalidated(nil, failure: "\(error)"))
            }
        case .webSocket(let effect):
            webSocket.perform(effect)
        case .openHistory(let requestKey):
            guard let history else {
                queue.post(.notice(StatusMessage("History is off, so there is nothing to show", kind: .error)))
                return
            }
            background { [queue] in
                var pane = HistoryPaneState(store: history)
                if let request = pane.show(requestKey: requestKey), case .message(let text) = request {
                    queue.post(.notice(StatusMessage(text, kind: .error)))
                }
                queue.post(.historyOpened(pane))
            }
        }
    }

    /// Closes the WebSocket politely (1001) and stops its batches; the explorer calls it when quitting.
    public func shutdown() {
        webSocket.shutdown()
        perform([.cancelSend])
    }

    // MARK: - Sending

    private func submit(_ job: SendJob, generation: Int, through latest: LatestOnly<ResponseResult>?) {
        guard let latest else { return }
        let request: HTTPRequest
        let secrets: Set<String>
        do {
            (request, _, secrets) = try store.resolveWithSecrets(job)
        } catch {
            queue.post(.sendFailed(generation: generation, SendFailure(kind: "request", message: "\(error)")))
            return
        }
        let id = RequestID.next()
        let client = self.client
        let queue = self.queue
        let method = request.method.rawValue
        let url = request.url.absoluteString
        let debounced = latest !== immediate.withLock({ $0 })
        let store = self.store
        let name = job.draft.name
        let history = self.history
        // Held across submit so the delivery, on another thread, always finds the mapping.
        submissions.withLock { map in
            let token = latest.submit {
                if debounced { queue.post(.liveSendStarted(generation: generation, method: method, url: url)) }
                let response = try await client.send(request, context: RequestContext(id: id))
                store.record(name: name, response: response)
                if let history {
                    Self.recordHistory(request: request, response: response, name: name, path: job.ref?.file,
                                       secrets: secrets, generation: generation, history: history, queue: queue)
                }
                // The viewer lays out the body; the summary's own layout is the fallback for a body that
                // cannot be mapped.
                let pane = ResponseFormatter.pane(response)
                return ResponseResult(summary: ResponseFormatter.summary(response, layingOutBody: pane == nil), pane: pane)
            }
            map[token] = Submission(generation: generation, id: id)
        }
    }

    /// Records a finished exchange into history in the background, then posts the request's latency.
    private static func recordHistory(request: HTTPRequest, response: HTTPResponse, name: String, path: String?,
                                      secrets: Set<String>, generation: Int, history: HistoryStore, queue: ActionQueue) {
        Task.detached(priority: .utility) {
            do {
                let (key, latency) = try HistoryRecording.record(request: request, response: response, name: name,
                                                                 collectionPath: path, secrets: secrets, into: history)
                queue.post(.historyRecorded(generation: generation, requestKey: key, latency: latency))
            } catch {
                queue.post(.notice(StatusMessage("Not kept in history: \(error)", kind: .error)))
            }
        }
    }

    private func makeLatestOnly(debounce: Duration) -> LatestOnly<ResponseResult> {
        LatestOnly(debounce: debounce) { [weak self] outcome in self?.deliver(outcome) }
    }

    private func deliver(_ outcome: LatestOnly<ResponseResult>.Outcome) {
        guard let submission = submissions.withLock({ $0.removeValue(forKey: outcome.generation) }) else { return }
        let generation = submission.generation
        switch outcome {
        case .completed(_, .success(let result)):
            // The viewer first, so no frame shows the summary without it (its body lines may be empty).
            if let pane = result.pane {
                indexing.withLock { task in
                    task?.cancel()
                    task = pane.indexInBackground()
                }
                queue.post(.responsePaneReady(generation: generation, pane))
            }
            queue.post(.responseReceived(generation: generation, result.summary))
        case .completed(_, .failure(.cancelled)):
            queue.post(.sendCancelled(generation: generation))
        case .completed(_, .failure(let error)):
            queue.post(.sendFailed(generation: generation, SendFailure(kind: error.kind, message: "\(error)")))
        case .superseded(_, let wasSent):
            let byUser = userCancelled.withLock { $0.remove(generation) != nil }
            if wasSent && !byUser { queue.post(.clientEvent(.cancelled(submission.id, superseded: true))) }
            queue.post(.sendCancelled(generation: generation))
        }
    }

    private func background(_ work: @escaping @Sendable () -> Void) {
        Task.detached(priority: .userInitiated) { work() }
    }
}

/// Writing the system clipboard through the terminal.
public enum Clipboard {
    /// Sends OSC 52 with the text to the controlling terminal (tmux and most terminals honour it).
    public static let osc52: @Sendable (String) -> Void = { text in
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        guard let tty = FileHandle(forWritingAtPath: "/dev/tty") else { return }
        tty.write(Data(sequence.utf8))
        try? tty.close()
    }
}

/// What one send produces for the screen: the summary the status line reads and the viewer's state.
struct ResponseResult: Sendable {
    var summary: ResponseSummary
    var pane: ResponsePaneState?
}

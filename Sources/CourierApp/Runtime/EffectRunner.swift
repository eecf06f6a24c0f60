import CourierBody
import CourierCollections
import CourierHTTP
import CourierHistory
import CourierSecurity
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
        /// The cookie jars, one per environment, that saved requests share; nil keeps no cookies.
        public var cookies: CookieJarStore?
        /// Where OAuth 2.0 tokens are kept between runs (the explorer passes the XDG default); nil keeps them
        /// for the session only.
        public var authTokens: OAuth2TokenCache?

        public init(transport: any Transport, themeFolders: [URL], trueColor: Bool = false, noColor: Bool = false,
                    cache: HTTPCacheMiddleware? = nil, historyDirectory: URL? = nil, cookies: CookieJarStore? = nil,
                    clipboard: @escaping @Sendable (String) -> Void = Clipboard.osc52) {
            self.transport = transport
            self.cookies = cookies
            self.historyDirectory = historyDirectory
            self.cache = cache
            self.themeFolders = themeFolders
            self.trueColor = trueColor
            self.noColor = noColor
            self.clipboard = clipboard
        }
    }

    /// One submission in flight, by its generation (the app's, which `LatestOnly` numbers it by too); its
    /// watcher knows the request id the client's events carry.
    struct Submission {
        var generation: Int
        var watcher: SendWatcher
    }

    public let store: CollectionStore
    /// The response history the runner records into and the history pane reads; nil when it is off.
    public let history: HistoryStore?
    let configuration: Configuration
    let queue: ActionQueue
    let client: HTTPClient
    let submissions = Mutex<[UInt64: Submission]>([:])
    /// Generations the user cancelled, so their end is not logged as superseded.
    let userCancelled = Mutex<Set<Int>>([])
    let immediate: Mutex<LatestOnly<SendResult>?> = Mutex(nil)
    private let live: Mutex<LatestOnly<SendResult>?> = Mutex(nil)
    private let liveDebounce = Mutex<Duration?>(nil)
    /// The Response pane's search, filter, indexing and diff, cancelled by generation.
    private let bodyJobs: BodyJobRunner
    /// The WebSocket pane's session, batching its events into one action per frame.
    let webSocket: WebSocketPaneConnector
    /// GRPC requests' calls, made on a libcurl transport of their own the first time one is sent (the HTTP
    /// client's transport may be a test's stub); their attempts show in the Log as HTTP ones do.
    private let grpcCalls = Mutex<GRPCRequestCall?>(nil)

    func grpcCall() -> GRPCRequestCall {
        grpcCalls.withLock { call in
            if let call { return call }
            let made = GRPCRequestCall(transport: CurlTransport(),
                                       events: EventSink { [queue] event in queue.post(.clientEvent(event)) })
            call = made
            return made
        }
    }

    public init(configuration: Configuration, queue: ActionQueue, store: CollectionStore = CollectionStore()) {
        self.configuration = configuration
        self.queue = queue
        self.store = store
        bodyJobs = BodyJobRunner(queue: queue)
        history = configuration.historyDirectory.map { HistoryStore(directory: $0) }
        let events = EventSink { [queue] event in queue.post(.clientEvent(event)) }
        configuration.cookies?.reportSaveFailures { [queue] message in
            let sentence = message.prefix(1).uppercased() + message.dropFirst()
            queue.post(.notice(StatusMessage(sentence, kind: .error)))
        }
        var setup = ClientSetup()
        setup.transport = configuration.transport
        setup.cache = configuration.cache
        setup.cookies = configuration.cookies
        setup.events = events
        // What the user must do to sign in (a device code, a browser page) is said at once in the status bar.
        setup.authTokens = configuration.authTokens
        setup.authPrompt = { [queue] prompt in queue.post(.notice(StatusMessage(prompt.message))) }
        client = setup.makeClient()
        // A batch waits while the loop has not drained the previous actions, so batches cannot pile up.
        webSocket = WebSocketPaneConnector(isReady: { [queue] in queue.isEmpty }) { [queue] batch in
            queue.post(.webSocketEvents(batch))
        }
        immediate.withLock { $0 = makeLatestOnly(debounce: .zero) }
    }

    /// Starts what waited for the first frame: making a deferred transport (`DeferredTransport`) and
    /// collecting the HTTP cache's leftovers. That lists a large folder and reads its entries (tens of ms), so
    /// it runs at the lowest priority on a thread of its own: the terminal drawing the frame comes first.
    public func firstFrameDrawn() {
        (configuration.transport as? DeferredTransport)?.start()
        if let cache = configuration.cache {
            let thread = Thread {
                // On Linux a thread's nice value is its own: 0 names the calling thread.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                cache.store.collectLeftoversIfDue()
            }
            thread.name = "courier.housekeep"
            thread.start()
        }
    }

    /// Starts every effect; results arrive later through the queue.
    public func perform(_ effects: [Effect]) {
        for effect in effects { perform(effect) }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .loadCollection(let path):
            background { [store, queue] in Self.post(store.load(path), to: queue) }
        case .loadCollectionInStages(let path):
            background { [store, queue] in
                // A small collection is whole after the first stage; a large one shows its start at once.
                switch store.loadStart(path) {
                case .start(let start):
                    queue.post(.collectionStartLoaded(start))
                    Self.post(store.load(path), to: queue)
                case .whole(let collection, let problems):
                    Self.post((collection, problems), to: queue)
                }
            }
        case .send(let generation, let job):
            live.withLock { $0?.cancel() }
            submit(job, generation: generation, through: immediate.withLock { $0 })
        case .sendLive(let generation, let job, let debounce):
            let queueForLive = live.withLock { current -> LatestOnly<SendResult>? in
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
                } catch CollectionError.changedOnDisk {
                    let message = "\(ref.file) changed on disk since it was loaded"
                    queue.post(.saveConflict(SaveConflict(ref: ref, draft: draft, message: message)))
                } catch {
                    queue.post(.collectionEditFailed("Not saved: \(error)"))
                }
            }
        case .overwrite(let ref, let draft):
            background { [store, queue] in
                do {
                    queue.post(.saveFinished(ref, try store.overwrite(ref, draft)))
                } catch {
                    queue.post(.collectionEditFailed("Not saved: \(error)"))
                }
            }
        case .conflictDiff(let ref, let draft):
            background { [store, queue] in
                do {
                    queue.post(.conflictDiffReady(try store.conflictDiff(ref, draft)))
                } catch {
                    queue.post(.conflictDiffReady(["Cannot compare: \(error)"]))
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
            // Resolving reads environment and body files: off the loop thread. The clipboard is written back
            // on the loop thread (`copyToClipboard`), which owns the terminal the sequence goes to.
            background { [store, queue] in
                do {
                    // The one exporter: secrets masked (the secret policy), file bodies kept as @FILE.
                    let resolved = try store.resolveWithSecrets(job)
                    queue.post(.curlCommandReady(CurlExporter.command(for: resolved.request, secrets: resolved.secrets)))
                } catch {
                    queue.post(.notice(StatusMessage("\(error)", kind: .error)))
                }
            }
        case .copyAsCode(let job, let language):
            background { [store, queue] in
                do {
                    queue.post(.codeReady(try store.code(job, language: language), language))
                } catch {
                    queue.post(.notice(StatusMessage("\(error)", kind: .error)))
                }
            }
        case .writeFile(let path, let contents):
            background { [queue] in
                do {
                    try AtomicFile.write(contents, to: URL(fileURLWithPath: path))
                    queue.post(.notice(StatusMessage("Saved \(contents.count) bytes to \(path)", kind: .success)))
                } catch {
                    queue.post(.notice(StatusMessage("Cannot write \(error)", kind: .error)))
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
        case .listCookies(let environment):
            let name = environment ?? CookieJarStore.defaultJarName
            // A jar not opened yet is read from its file: off the loop thread.
            background { [queue, cookies = configuration.cookies] in
                let lines = cookies?.jar(name).all().map { $0.listing(showSecrets: false) } ?? []
                queue.post(.cookiesListed(CookieJarListing(environment: name, lines: lines)))
            }
        case .listThemes:
            let folders = configuration.themeFolders
            background { [queue] in queue.post(.themesListed(ThemeLoader.names(in: folders))) }
        case .openCompare(let job):
            guard let cache = configuration.cache else {
                queue.post(.notice(StatusMessage("The HTTP cache is off, so there is nothing to compare", kind: .error)))
                return
            }
            // Resolving reads environment and body files: off the loop thread.
            background { [queue, store] in
                do {
                    queue.post(.compareOpened(ComparePaneState(request: try store.resolve(job).0, cache: cache)))
                } catch {
                    queue.post(.notice(StatusMessage("\(error)", kind: .error)))
                }
            }
        case .revalidate(let job):
            guard let cache = configuration.cache else { return }
            let transport = configuration.transport
            let queue = self.queue
            let store = self.store
            Task.detached {
                let request: HTTPRequest
                do { request = try store.resolve(job).0 } catch {
                    queue.post(.compareRevalidated(nil, failure: "\(error)"))
                    return
                }
                switch await ComparePaneState.revalidate(request, cache: cache, transport: transport) {
                case .success(let revalidation): queue.post(.compareRevalidated(revalidation, failure: nil))
                case .failure(let error): queue.post(.compareRevalidated(nil, failure: "\(error)"))
                }
            }
        case .webSocket(let effect):
            webSocket.perform(effect)
        case .webSocketConnect(let job, let subscriptions):
            connectWebSocket(job, subscriptions: subscriptions)
        case .recordStream(let entry, let body, let secrets):
            guard let history else { return }
            background { [queue] in
                do {
                    _ = try history.record(entry, body: body, secrets: HistoryRecording.masked(secrets))
                } catch {
                    queue.post(.notice(StatusMessage("Not kept in history: \(error)", kind: .error)))
                }
            }
        case .loadPreviousResponse(let requestKey, let skipNewest):
            guard let history else {
                queue.post(.previousResponseLoaded(requestKey: requestKey, nil))
                return
            }
            background { [queue] in
                let entries = (try? history.list(requestKey: requestKey)) ?? []
                let entry = entries.dropFirst(skipNewest ? 1 : 0).first { $0.response != nil }
                let pane = entry.flatMap { entry -> ResponsePaneState? in
                    guard let response = entry.response, let body = try? history.body(id: entry.id) else { return nil }
                    let info = ResponsePaneInfo(head: response.head, cacheDecision: entry.cacheDecision)
                    return ResponsePaneState(info: info, body: BodyDocument(data: body))
                }
                queue.post(.previousResponseLoaded(requestKey: requestKey, pane))
            }
        case .readHistory(let read):
            guard let history else { return }
            background { [queue] in queue.post(.historyRead(read.perform(with: history))) }
        case .bodyJob(let job):
            bodyJobs.start(job)
        case .cancelBodyJob(let generation):
            bodyJobs.cancel(generation)
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
        bodyJobs.cancelAll()
        perform([.cancelSend])
    }

    private func makeLatestOnly(debounce: Duration) -> LatestOnly<SendResult> {
        LatestOnly(debounce: debounce) { [weak self] outcome in self?.deliver(outcome) }
    }

    /// A loaded collection, and its first problem as a notice.
    private static func post(_ loaded: (collection: Collection, problems: [String]), to queue: ActionQueue) {
        queue.post(.collectionLoaded(loaded.collection))
        if let first = loaded.problems.first {
            let more = loaded.problems.count > 1 ? " (\(loaded.problems.count) problems: ! lists them)" : ""
            queue.post(.notice(StatusMessage(first + more, kind: .error)))
        }
    }

    private func background(_ work: @escaping @Sendable () -> Void) {
        Task.detached(priority: .userInitiated) { work() }
    }
}

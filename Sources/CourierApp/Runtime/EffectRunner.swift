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
        /// The cookie jars, one per environment, that saved requests share; nil keeps no cookies.
        public var cookies: CookieJarStore?

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
    private let immediate: Mutex<LatestOnly<SendResult>?> = Mutex(nil)
    private let live: Mutex<LatestOnly<SendResult>?> = Mutex(nil)
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
        let cookieSteps: [any Middleware] = configuration.cookies.map { jars in [CookieMiddleware { jars.jar($0) }] } ?? []
        client = HTTPClient(configuration: HTTPClient.Configuration(transport: configuration.transport,
                                                            cache: configuration.cache, middlewares: cookieSteps,
                                                            events: events))
        // A batch waits while the loop has not drained the previous actions, so batches cannot pile up.
        webSocket = WebSocketPaneConnector(isReady: { [queue] in queue.isEmpty }) { [queue] batch in
            queue.post(.webSocketEvents(batch))
        }
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
                    let more = problems.count > 1 ? " (\(problems.count) problems: ! lists them)" : ""
                    queue.post(.notice(StatusMessage(first + more, kind: .error)))
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
        case .listCookies(let environment):
            let name = environment ?? CookieJarStore.defaultJarName
            let lines = configuration.cookies?.jar(name).all().map { $0.listing(showSecrets: false) } ?? []
            queue.post(.cookiesListed(CookieJarListing(environment: name, lines: lines)))
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
                    let info = ResponsePaneInfo(status: response.status, reason: response.reason ?? "",
                                                cacheDecision: entry.cacheDecision, headers: response.headers)
                    return ResponsePaneState(info: info, body: BodyDocument(data: body))
                }
                queue.post(.previousResponseLoaded(requestKey: requestKey, pane))
            }
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

    private func submit(_ job: SendJob, generation: Int, through latest: LatestOnly<SendResult>?) {
        guard let latest else { return }
        let id = RequestID.next()
        let client = self.client
        let queue = self.queue
        let debounced = latest !== immediate.withLock({ $0 })
        let store = self.store
        let name = job.draft.name
        let history = self.history
        let cookies = configuration.cookies
        // Held across submit so the delivery, on another thread, always finds the mapping.
        submissions.withLock { map in
            let token = latest.submit {
                // Resolving reads environment and body files, and a request's pre-request scripts may run to
                // their time limit: both happen here, in the task, never on the loop thread.
                let request: HTTPRequest
                let secrets: Set<String>
                var report = ScriptReport()
                var prepared: ResolvedRequest?
                if store.hasScripts(job) {
                    // Scripts get a thread of their own: one that runs to its time limit must not hold a
                    // thread of the shared pool the rest of the explorer's work runs on.
                    let outcome: Result<PreparedSend, CollectionError> = await Self.onOwnThread {
                        var report = ScriptReport()
                        do throws(CollectionError) {
                            let result = try store.prepareWithScripts(job, report: &report)
                            return .success((result.resolved, result.request, report))
                        } catch {
                            return .failure(error)
                        }
                    }
                    switch outcome {
                    case .success(let ready):
                        (prepared, request, report) = ready
                        secrets = ready.resolved.secrets
                    case .failure(let error):
                        // Never sent: the pre-request script (or resolving after it) failed.
                        return .unresolved(Self.failure(error))
                    }
                } else {
                    do throws(CollectionError) {
                        (request, _, secrets) = try store.resolveWithSecrets(job)
                    } catch {
                        return .unresolved(Self.failure(error))
                    }
                }
                if let cookies, let jar = request.cookieJar {
                    let lines = cookies.jar(jar).cookies(for: request.url)
                        .map { "\($0.name)=\($0.shownValue(showSecrets: false))" }
                    queue.post(.requestCookies(request: name, lines: lines))
                }
                let method = request.method.rawValue
                let url = request.url.absoluteString
                if debounced { queue.post(.liveSendStarted(generation: generation, method: method, url: url)) }
                let response = try await client.send(request, context: RequestContext(id: id))
                if response.cache.decision == .fresh {
                    queue.post(.servedFromCache(id, method: method, url: response.url, status: response.status,
                                                response.cache))
                }
                store.record(name: name, response: response)
                if let prepared {
                    report = await Self.onOwnThread { [report] in
                        var report = report
                        store.handle(response, of: prepared, job: job, report: &report)
                        return report
                    }
                    queue.post(.scriptsRan(id, report))
                }
                var pane = ResponseFormatter.pane(response)
                // Once mapped and read, a temporary body file is removed: the viewer's mapping stays readable
                // and the disk space returns when the response is replaced, so sending a large request again
                // and again, or quitting, leaves nothing in the temporary folder.
                if let history {
                    Self.recordHistory(request: request, response: response, name: name, path: job.ref?.file,
                                       draft: job.draft,
                                       secrets: secrets, generation: generation, history: history, queue: queue)
                } else {
                    TemporaryBodyFiles.release(response.body)
                }
                let notes = [report.testSummary, report.error.map { "script error: \($0)" }].compactMap { $0 }
                pane?.info.tests = notes.isEmpty ? nil : notes.joined(separator: " · ")
                pane?.info.testsFailed = report.error != nil || report.tests.contains { !$0.passed }
                return .response(pane)
            }
            map[token] = Submission(generation: generation, id: id)
        }
    }

    /// Why a request could not be built, in the kinds the Response pane explains.
    private static func failure(_ error: CollectionError) -> SendFailure {
        let kind = switch error {
        case .unknownVariable: SendFailure.unknownVariableKind
        case .script: "script"
        default: "request"
        }
        return SendFailure(kind: kind, message: "\(error)")
    }

    /// Runs blocking work (request scripts) on a thread of its own and waits for it without holding a
    /// thread of the cooperative pool.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Records a finished exchange into history in the background, then posts the request's latency.
    private static func recordHistory(request: HTTPRequest, response: HTTPResponse, name: String, path: String?,
                                      draft: RequestDraft,
                                      secrets: Set<String>, generation: Int, history: HistoryStore, queue: ActionQueue) {
        Task.detached(priority: .utility) {
            defer { TemporaryBodyFiles.release(response.body) }
            do {
                let (key, latency) = try HistoryRecording.record(request: request, response: response, name: name,
                                                                 collectionPath: path, draft: draft, secrets: secrets,
                                                                 into: history)
                queue.post(.historyRecorded(generation: generation, requestKey: key, latency: latency))
            } catch {
                queue.post(.notice(StatusMessage("Not kept in history: \(error)", kind: .error)))
            }
        }
    }

    private func makeLatestOnly(debounce: Duration) -> LatestOnly<SendResult> {
        LatestOnly(debounce: debounce) { [weak self] outcome in self?.deliver(outcome) }
    }

    private func deliver(_ outcome: LatestOnly<SendResult>.Outcome) {
        guard let submission = submissions.withLock({ $0.removeValue(forKey: outcome.generation) }) else { return }
        let generation = submission.generation
        switch outcome {
        case .completed(_, .success(.unresolved(let failure))):
            queue.post(.sendFailed(generation: generation, failure))
        case .completed(_, .success(.response(let pane?))):
            indexing.withLock { task in
                task?.cancel()
                task = pane.indexInBackground()
            }
            queue.post(.responsePaneReady(generation: generation, pane))
        case .completed(_, .success(.response(nil))):
            queue.post(.sendFailed(generation: generation, SendFailure(
                kind: "body", message: "The response arrived but its body file could not be read")))
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

/// What a send's task produced: the viewer's state of a response (nil when its body file could not be read),
/// or why the request could not be built.
enum SendResult: Sendable {
    case response(ResponsePaneState?)
    case unresolved(SendFailure)
}

/// A request whose pre-request scripts ran: resolved, with the explorer's options, and what the scripts did.
typealias PreparedSend = (resolved: ResolvedRequest, request: HTTPRequest, report: ScriptReport)

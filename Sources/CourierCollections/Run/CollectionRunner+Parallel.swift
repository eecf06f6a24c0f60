import Foundation

/// `courier run --jobs N`: the requests of a file that do not need one another run at once; a request waits
/// for those it needs: whose response it uses (`{{login.response.body.$.token}}`), whose scripts may set a
/// variable it uses, every request before a run block, `# @ref`, `# @loop` or `# @sleep` (which run in place
/// in file order), and the scripted requests before it when it has scripts (they share globals in order).
/// Requests that read the same response are about the same thing (the user `createUser` made): among them, one
/// that changes it (not GET, HEAD, OPTIONS or TRACE) waits for those before it, and those after it wait for it,
/// so `getUser`, `patchUser` and `deleteUser` keep their file order while unrelated requests run at once.
extension CollectionRunner {
    /// For each request, the indices of the earlier requests it must wait for, leaving out those it waits for
    /// through another: a barrier waits for the last barrier and the requests since, a scripted request for the
    /// last scripted one (each waited for the one before), and a request whose variable a script may set for
    /// the last such script. Linear in the file (a file of 20,000 GETs took minutes when every request looked at
    /// every request before it; 5,000 scripted requests kept 12.5 million indices and ran slower with `--jobs`).
    public static func prerequisites(of requests: [RequestTemplate],
                                     definitions: [String: [String]] = [:]) -> [[Int]] {
        var result: [[Int]] = []
        result.reserveCapacity(requests.count)
        var lastBarrier: Int?
        var named: [String: [Int]] = [:]
        var scripted: [Int] = []
        // Per variable name: how far into `scripted` it was looked for, and the last script that may set it.
        var setters: [String: (looked: Int, last: Int?)] = [:]
        var readers: [String: Readers] = [:]
        for (index, request) in requests.enumerated() {
            defer {
                if isBarrier(request) { lastBarrier = index }
                if let name = request.name { named[name, default: []].append(index) }
                if !request.scripts.isEmpty { scripted.append(index) }
            }
            if isBarrier(request) {
                // Those before the last barrier are waited for through it.
                result.append(Array((lastBarrier ?? 0)..<index))
                continue
            }
            var needs = Set<Int>()
            if let lastBarrier { needs.insert(lastBarrier) }
            let text = textRead(by: request, definitions: definitions)
            let changes = !request.method.isSafe
            for name in Set(dependencies(of: request, reading: text)) {
                needs.formUnion(named[name] ?? [])
                needs.formUnion(readers[name, default: Readers()].awaited(by: index, changing: changes))
            }
            if !request.scripts.isEmpty {
                if let last = scripted.last { needs.insert(last) }
            } else {
                for name in variableNames(in: text) {
                    var setter = setters[name] ?? (0, nil)
                    for position in scripted[setter.looked...] where mayScriptSet(any: [name], requests[position]) {
                        setter.last = position
                    }
                    setter.looked = scripted.count
                    setters[name] = setter
                    if let last = setter.last { needs.insert(last) }
                }
            }
            result.append(needs.sorted())
        }
        return result
    }

    /// The requests so far that read one response: the last that changes what it names, and those since.
    private struct Readers {
        var lastChanging: Int?
        var since: [Int] = []

        /// Whom request `index` waits for among them (all since the last change when it changes too, else the
        /// last change), and takes its place.
        mutating func awaited(by index: Int, changing: Bool) -> [Int] {
            let waits = changing ? since + (lastChanging.map { [$0] } ?? []) : (lastChanging.map { [$0] } ?? [])
            if changing {
                lastChanging = index
                since = []
            } else {
                since.append(index)
            }
            return waits
        }
    }

    /// A request that runs in place, after everything before it and before everything after it.
    static func isBarrier(_ request: RequestTemplate) -> Bool {
        request.isRunBlock || !request.runsBefore.isEmpty || !request.references.isEmpty || request.loop != nil
            || request.tags[sleepTag] != nil || !request.responseVariables.isEmpty
    }

    /// Whether a script of `request` may set one of `names`: an inline script that names it, or a script
    /// file (whose text is not read here).
    private static func mayScriptSet(any names: Set<String>, _ request: RequestTemplate) -> Bool {
        !names.isEmpty && request.scripts.contains { script in
            if case .file = script.source { return true }
            return names.contains { script.mentionsSetting($0) }
        }
    }

    /// The names `requests` read from outside themselves: responses (`{{login.response…}}`) and plain
    /// variables; a file that reads a name another file provides waits for that file.
    public static func namesRead(by requests: [RequestTemplate], definitions: [String: [String]] = [:])
        -> Set<String> {
        var names = Set<String>()
        for request in requests {
            let text = textRead(by: request, definitions: definitions)
            names.formUnion(dependencies(of: request, reading: text))
            names.formUnion(variableNames(in: text))
        }
        return names
    }

    /// Whether `requests` may provide one of `names` to another file: a request of that name, or a script
    /// that may set it.
    public static func mayProvide(any names: Set<String>, _ requests: [RequestTemplate]) -> Bool {
        requests.contains { request in
            (request.name.map(names.contains) ?? false) || mayScriptSet(any: names, request)
                || request.isRunBlock || !request.runsBefore.isEmpty
        }
    }

    /// `runKeepingState` with up to `limit.width` requests of the file in flight (the limit is shared with
    /// the run's other files); each request starts once those it needs have finished, with their responses
    /// and globals, lowest index first. Outcomes are reported as each request (or run block) finishes, before
    /// the requests waiting for it start, from the thread it ran on (so `onOutcome` takes care of its own
    /// order). With `failFast`, nothing new starts after the first failure. Only the responses the context's store
    /// keeps (`ResponseStore.keptNames`) are handed on to later requests and returned. With `lanes`, the file's
    /// workers each take a lane (shared with the run's other
    /// files), send through that client and run on its executor; without, they send through this runner's
    /// `send`, where the caller runs.
    public func runConcurrently(_ requests: [RequestTemplate], limit: ConcurrencyLimit, lanes: SendLanes? = nil,
                                failFast: Bool = false, onOutcome: @escaping @Sendable (RunOutcome) -> Void = { _ in })
        async -> (outcomes: [RunOutcome], responses: ResponseStore, globals: [String: String]) {
        var variables = context
        variables.responses.declare(file.requests.compactMap(\.name) + imports.names)
        let needs = Self.prerequisites(of: requests, definitions: Self.definitions(file.fileVariables,
                                                                                    environment: context.environment))
        let queue = ParallelRunQueue(needs: needs, variables: variables)
        // Every outcome of a step comes back to be reported here, kept or not.
        var stepRunner = self
        stepRunner.keepsEveryOutcome = true
        let shared = SharedRunner(stepRunner, lanes: lanes?.lanes ?? [])
        let keepsEveryOutcome = self.keepsEveryOutcome
        let file = self.file
        // No more workers than requests may be in flight: each takes the next ready request when its last one
        // ends, on its own thread. A task made for each of 20,000 requests at once, each holding a copy of the
        // variables while it waited for a place, took 238 MB; a task per request, made by one scheduling task,
        // made every request on another loop thread than the scheduler's cross threads twice.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(limit.width, requests.count) {
                let lane = lanes?.take() ?? 0
                group.addTask(executorPreference: shared.executors[lane]) {
                    defer { lanes?.finished(lane) }
                    while let start = await queue.next() {
                        let template = requests[start.index]
                        await limit.acquire()
                        var own = start.snapshot
                        own.responses.trackChanges()
                        var ran: [RunOutcome] = []
                        let goOn = await shared.runners[lane].runSteps([template], variables: &own, outcomes: &ran,
                                                                       chain: [], failFast: failFast,
                                                                       sender: shared.senders[lane],
                                                                       onOutcome: { _ in })
                        limit.release()
                        for outcome in ran { onOutcome(outcome) }
                        // As `runSteps` keeps them: without `keepsEveryOutcome`, only those a later step looks
                        // back at.
                        let kept = ran.filter { outcome in
                            keepsEveryOutcome || !outcome.succeeded || file.hasScripts(outcome.template)
                                || outcome.skipped != nil
                        }
                        queue.finish(.init(index: start.index, own: own, before: start.snapshot.globals, kept: kept, goOn: goOn && !(failFast && ran.contains { !$0.succeeded })))
                    }
                }
            }
        }
        return queue.result
    }

    /// The runners every request of a parallel run steps with, one per lane (the runner sending through that
    /// lane's client): not a copy of the runner (its file, its variables) in each request's task.
    private final class SharedRunner: Sendable {
        let runners: [CollectionRunner]
        /// Each runner's sender, made once: each request's step made its own (a copy of the file and the hooks).
        let senders: [RequestSender]
        /// Where each lane's requests run; nil where the caller runs.
        let executors: [(any TaskExecutor)?]

        /// Without lanes, one: `runner` as it is.
        init(_ runner: CollectionRunner, lanes: [SendLanes.Lane]) {
            runners = lanes.isEmpty ? [runner] : lanes.map { lane in
                var own = runner
                own.send = lane.send
                return own
            }
            senders = runners.map(\.sender)
            executors = lanes.isEmpty ? [nil] : lanes.map(\.executor)
        }
    }
}

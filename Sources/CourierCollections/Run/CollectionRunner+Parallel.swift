import Foundation

/// `courier run --jobs N`: the requests of a file that do not need one another run at once; a request waits
/// for those it needs: whose response it uses (`{{login.response.body.$.token}}`), whose scripts may set a
/// variable it uses, every request before a run block, `# @ref`, `# @loop` or `# @sleep` (which run in place
/// in file order), and the scripted requests before it when it has scripts (they share globals in order).
/// Requests that read the same response are about the same thing (the user `createUser` made): among them, one
/// that changes it (not GET, HEAD, OPTIONS or TRACE) waits for those before it, and those after it wait for it,
/// so `getUser`, `patchUser` and `deleteUser` keep their file order while unrelated requests run at once.
extension CollectionRunner {
    /// For each request, the indices of the earlier requests it must wait for. Linear in the file but for the
    /// scripted requests: each request looks up the names it uses and the requests with scripts before it,
    /// not every request before it (a file of 20,000 GETs took minutes).
    public static func prerequisites(of requests: [RequestTemplate],
                                     definitions: [String: [String]] = [:]) -> [[Int]] {
        var result: [[Int]] = []
        result.reserveCapacity(requests.count)
        var lastBarrier: Int?
        var named: [String: [Int]] = [:]
        var scripted: [Int] = []
        var readers: [String: Readers] = [:]
        for (index, request) in requests.enumerated() {
            defer {
                if isBarrier(request) { lastBarrier = index }
                if let name = request.name { named[name, default: []].append(index) }
                if !request.scripts.isEmpty { scripted.append(index) }
            }
            if isBarrier(request) {
                result.append(Array(0..<index))
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
            let used = variableNames(in: text)
            for position in scripted where !request.scripts.isEmpty || mayScriptSet(any: used, requests[position]) {
                needs.insert(position)
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
    /// and globals. Outcomes are reported as each request (or run block) finishes, one at a time. With
    /// `failFast`, nothing new starts after the first failure. `responsesRead`, when known
    /// (`responsesRead(by:of:definitions:)` over the whole run), names the only responses handed on to later
    /// requests and returned. With `lanes`, each request sends through the lane it takes (shared with the run's
    /// other files) and runs on that lane's executor; without, through this runner's `send`, where the caller
    /// runs.
    public func runConcurrently(_ requests: [RequestTemplate], limit: ConcurrencyLimit, lanes: SendLanes? = nil,
                                failFast: Bool = false, responsesRead: Set<String>? = nil,
                                onOutcome: (RunOutcome) -> Void = { _ in })
        async -> (outcomes: [RunOutcome], responses: ResponseStore, globals: [String: String]) {
        var variables = context
        variables.responses.declare(file.requests.compactMap(\.name) + imports.names)
        let needs = Self.prerequisites(of: requests, definitions: Self.definitions(file.fileVariables,
                                                                                    environment: context.environment))
        // How many prerequisites each request still waits for, and who waits for each: a request that ends
        // readies its dependents, instead of every request being checked again after each one ends.
        var waitingFor = needs.map(\.count)
        var dependents = [[Int]](repeating: [], count: requests.count)
        for (index, earlier) in needs.enumerated() {
            for position in earlier { dependents[position].append(index) }
        }
        // Ready requests start lowest index first, and no more of this file's are started than can be in
        // flight: a task made for each of 20,000 ready requests at once, each holding a copy of the variables
        // while it waited for a place, took 238 MB.
        var ready = requests.indices.map { waitingFor[$0] == 0 }
        var readyCount = ready.filter { $0 }.count
        // What each ready request starts from: the variables when it became ready (those of the requests it
        // waited for). Taken then, the copies of one moment share their storage; taken at each start, every
        // merge after it copied the run's whole store again.
        var snapshots: [Int: VariableContext] = [:]
        let initial = variables
        var lowest = 0
        var inFlight = 0
        var stopped = false
        var outcomes: [RunOutcome] = []
        // Every outcome of a step comes back to be reported here, kept or not.
        var stepRunner = self
        stepRunner.keepsEveryOutcome = true
        let shared = SharedRunner(stepRunner, lanes: lanes?.lanes ?? [])
        await withTaskGroup(of: (Int, [RunOutcome], VariableContext, [String: String], Bool).self) { group in
            while true {
                while !stopped && !Task.isCancelled && readyCount > 0 && inFlight < limit.width {
                    while !ready[lowest] { lowest += 1 }
                    let index = lowest
                    ready[index] = false
                    readyCount -= 1
                    inFlight += 1
                    let snapshot = snapshots.removeValue(forKey: index) ?? initial
                    let template = requests[index]
                    let lane = lanes?.take() ?? 0
                    group.addTask(executorPreference: shared.executors[lane]) {
                        await limit.acquire()
                        var own = snapshot
                        own.responses.trackChanges()
                        var ran: [RunOutcome] = []
                        let goOn = await shared.runners[lane].runSteps([template], variables: &own, outcomes: &ran,
                                                                       chain: [], failFast: failFast,
                                                                       sender: shared.senders[lane],
                                                                       onOutcome: { _ in })
                        limit.release()
                        lanes?.finished(lane)
                        return (index, ran, own, snapshot.globals, goOn)
                    }
                }
                guard let (index, ran, own, before, goOn) = await group.next() else { break }
                inFlight -= 1
                if responsesRead.map({ read in requests[index].name.map(read.contains) ?? true }) ?? true {
                    variables.responses.merge(own.responses)
                }
                // Only what this request's scripts changed: another request may have set a global meanwhile.
                for (name, value) in own.globals where before[name] != value { variables.globals[name] = value }
                variables.lazyGlobals.merge(own.lazyGlobals) { _, new in new }
                variables.ranFileScripts.formUnion(own.ranFileScripts)
                // Its dependents start from the variables it leaves.
                for dependent in dependents[index] {
                    waitingFor[dependent] -= 1
                    if waitingFor[dependent] == 0 {
                        snapshots[dependent] = variables
                        ready[dependent] = true
                        readyCount += 1
                        lowest = min(lowest, dependent)
                    }
                }
                for outcome in ran {
                    // As `runSteps` keeps them: without `keepsEveryOutcome`, only those a later step looks back at.
                    if keepsEveryOutcome || !outcome.succeeded || file.hasScripts(outcome.template)
                        || outcome.skipped != nil {
                        outcomes.append(outcome)
                    }
                    onOutcome(outcome)
                }
                if !goOn || (failFast && ran.contains { !$0.succeeded }) { stopped = true }
            }
        }
        return (outcomes, variables.responses, variables.globals)
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

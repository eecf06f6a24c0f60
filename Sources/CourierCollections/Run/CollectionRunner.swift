import CourierHTTP
import CourierScript
import CourierSecurity
import Foundation

/// Runs the requests of one `.http` file in file order, making each named response available to the
/// requests after it (`{{login.response.body.$.token}}`).
public struct CollectionRunner: Sendable {
    /// Sends one request through whatever client the caller built (retries, cache, auth).
    public typealias Send = @Sendable (HTTPRequest, RequestContext) async throws(APIError) -> HTTPResponse
    /// Runs one resolved `WEBSOCKET` request (connect, send its messages, collect replies, close).
    public typealias Exchange = @Sendable (ResolvedRequest) async -> WebSocketRunResult
    /// Calls one resolved `GRPC` request and returns its reply as a response (the reply as JSON, a stream's
    /// replies as a JSON array; a status other than OK throws), so handlers, tests and `>>` treat it as HTTP.
    public typealias Call = @Sendable (ResolvedRequest) async throws(APIError) -> HTTPResponse

    public var file: HTTPFile
    public var baseFolder: URL
    public var context: VariableContext
    /// The files `file` imports: `run #name` finds requests there, and their variables fill in for the file's.
    public var imports: ImportedFiles
    /// `--show-secrets`: `>> file` outputs keep the body as it came; otherwise the request's secrets and
    /// the private environment's values are masked in them, as in every other output.
    public var showSecrets = false
    /// Whether another file of a folder's run holds a request of that name (`postman.setNextRequest` then ends
    /// this file's run and the folder's goes on there); none by default.
    public var requestsElsewhere: @Sendable (String) -> Bool = { _ in false }
    /// `--jobs`: requests run side by side, so `setNextRequest` is not followed (and says so).
    public var runsSideBySide = false
    /// Told when each request is about to go out (the explorer follows a send with it).
    public var observer: (any RunObserver)?
    /// How requests go out; a parallel run's lanes each put their own client's here.
    var send: Send
    let exchange: Exchange?
    /// Runs `GRPC` requests; without it they are skipped.
    public var call: Call?
    /// The cookie jars the client sends with, for scripts' `pm.cookies.jar()`; nil where scripts have none.
    public var cookieJars: CookieJarStore?
    /// False: the outcomes a run returns are only those a later step looks back at (failed, skipped, or of a
    /// request with scripts), so a long file's run holds no response it has reported; every outcome still
    /// goes to `onOutcome`.
    public var keepsEveryOutcome = true

    /// The one send path, for this runner's file.
    var sender: RequestSender {
        var sender = RequestSender(file: file, baseFolder: baseFolder, exchange: exchange, send: send)
        sender.showSecrets = showSecrets
        sender.observer = observer
        sender.call = call
        sender.cookieJars = cookieJars
        return sender
    }

    /// A runner for `file`; `send` goes through the caller's client (retries, cache, auth). Without an
    /// `exchange`, WebSocket requests are skipped.
    public init(file: HTTPFile, baseFolder: URL, context: VariableContext, imports: ImportedFiles = .none,
                exchange: Exchange? = nil, send: @escaping Send) {
        self.file = imports.addingVariables(to: file)
        self.baseFolder = baseFolder
        self.context = context
        self.imports = imports
        self.exchange = exchange
        self.send = send
    }

    /// The requests `--name` picks (or all), in file order, with the named requests whose responses they
    /// use pulled in before them, directly or through a file variable or a value of `environment`.
    public static func selection(of file: HTTPFile, names: [String], all: Bool,
                                 environment: Environment = .none) throws(CollectionError) -> [RequestTemplate] {
        if all || names.isEmpty { return file.withKulalaSharedRequest(nil) }
        let wanted = try wantedNames(names, available: file.requests.compactMap(\.name),
                                     definitions: definitions(file.fileVariables, environment: environment),
                                     named: { name in file.requests.first { $0.name == name } },
                                     scripted: { file.requests.filter { !$0.scripts.isEmpty } })
        return file.withKulalaSharedRequest(file.requests.filter { $0.name.map(wanted.contains) ?? false })
    }

    /// `selection` over an outlined file: only the requests picked, and those with scripts, are parsed.
    public static func selection(of outline: HTTPFileOutline, names: [String],
                                 environment: Environment = .none) throws(CollectionError) -> [RequestTemplate] {
        let entries = outline.entries.indices
        let wanted = try wantedNames(names, available: outline.names,
                                     definitions: definitions(outline.fileVariables, environment: environment),
                                     named: { name in entries.first { outline.entries[$0].name == name }
                                         .flatMap { try? outline.template(at: $0) } },
                                     scripted: { entries.filter { outline.entries[$0].hasScripts }
                                         .compactMap { try? outline.template(at: $0) } })
        return try entries.filter { outline.entries[$0].name.map(wanted.contains) ?? false }
            .map { index throws(CollectionError) in try outline.template(at: index) }
    }

    /// The names `names` asks for, and the names of the requests they need: those whose responses they
    /// use and those whose scripts set a variable they use. `scripted` (the requests with scripts) is read
    /// at most once.
    static func wantedNames(_ names: [String], available: [String], definitions: [String: [String]] = [:],
                            named: (String) -> RequestTemplate?,
                            scripted: () -> [RequestTemplate]) throws(CollectionError) -> Set<String> {
        var withScripts: [RequestTemplate]?
        var wanted = Set<String>()
        var pending = names
        while let name = pending.popLast() {
            guard !wanted.contains(name) else { continue }
            guard let request = named(name) else {
                throw .unknownRequest(name: name, available: available)
            }
            wanted.insert(name)
            let text = textRead(by: request, definitions: definitions)
            pending += dependencies(of: request, reading: text).filter { available.contains($0) }
            if withScripts == nil { withScripts = scripted() }
            pending += scriptSetters(of: request, reading: text, among: withScripts ?? [])
        }
        return wanted
    }

    /// Named requests whose scripts set a variable `request` uses (`{{token}}` set by login's handler), so
    /// `--name me` runs `login` first as it does for `{{login.response…}}`.
    /// `text` is what the request reads (`textRead(by:definitions:)`).
    static func scriptSetters(of request: RequestTemplate, reading text: String,
                              among candidates: [RequestTemplate]) -> [String] {
        let used = variableNames(in: text)
        guard !used.isEmpty else { return [] }
        return candidates.filter { other in
            other.id != request.id && other.name != nil
                && used.contains { name in other.scripts.contains { $0.mentionsSetting(name) } }
        }.compactMap(\.name)
    }

    /// Plain `{{name}}` references (no dynamic `$…`, no `.response.`) in a request's text.
    public static func variableNames(in text: String) -> Set<String> {
        var names = Set<String>()
        TemplateExpressions.forEach(in: text) { name in
            if !name.hasPrefix("$") && !ResponseStore.isReference(name) { names.insert(name) }
        }
        return names
    }

    /// Names used as `{{name.response…}}` or `{{name.request…}}` in a request's text.
    /// `text` is what the request reads: its own text by default, or `textRead(by:definitions:)`.
    static func dependencies(of request: RequestTemplate, reading text: String? = nil) -> [String] {
        var names: [String] = []
        TemplateExpressions.forEach(in: text ?? textRead(by: request, definitions: [:])) { expression in
            if let reference = ResponseStore.reference(expression) {
                names.append(reference.name)
            } else if !expression.hasPrefix("$") {
                // httpyac's `{{login.token}}`: a name followed by a field (kept only when a request has it); and
                // its `{{loginResponse.status}}`, the whole response of `login`.
                let head = String(expression.prefix { $0 != "." && $0 != "[" })
                names.append(head)
                if let whole = ResponseStore.wholeResponseName(head) { names.append(whole) }
            }
        }
        // What the request runs itself first (httpyac's `# @ref`, kulala's `run` lines) is not pulled in twice.
        let runFirst = Set(request.references.map(\.name) + request.runsBefore.compactMap { directive in
            if case .request(let name) = directive.target { name } else { nil }
        })
        return names.filter { !runFirst.contains($0) }
    }

    /// Runs `requests` one after another, reporting each outcome as it finishes. With `failFast`, stops
    /// after the first failure.
    public func run(_ requests: [RequestTemplate], failFast: Bool = false,
                    onOutcome: (RunOutcome) -> Void = { _ in }) async -> [RunOutcome] {
        await runKeepingResponses(requests, failFast: failFast, onOutcome: onOutcome).outcomes
    }

    /// `run`, also returning the named responses of the run (those the context started with included),
    /// so a run over several files can hand them on to the next file.
    public func runKeepingResponses(_ requests: [RequestTemplate], failFast: Bool = false,
                                    onOutcome: (RunOutcome) -> Void = { _ in })
        async -> (outcomes: [RunOutcome], responses: ResponseStore) {
        let kept = await runKeepingState(requests, failFast: failFast, onOutcome: onOutcome)
        return (kept.outcomes, kept.responses)
    }

    /// `runKeepingResponses`, also returning the globals scripts set (`client.global`), which carry over
    /// to the next file too.
    public func runKeepingState(_ requests: [RequestTemplate], failFast: Bool = false,
                                onOutcome: (RunOutcome) -> Void = { _ in })
        async -> (outcomes: [RunOutcome], responses: ResponseStore, globals: [String: String]) {
        var variables = context
        variables.responses.declare(file.requests.compactMap(\.name) + imports.names)
        var outcomes: [RunOutcome] = []
        _ = await runSteps(requests, variables: &variables, outcomes: &outcomes, chain: [], failFast: failFast,
                           onOutcome: onOutcome)
        return (outcomes, variables.responses, variables.globals)
    }

    /// Runs `requests` of this file in order; a run block runs what it names in their own files. `chain` holds
    /// the run blocks being run (to stop a cycle). False when the run stops (failFast, cancelled). `sender`,
    /// when given, is this runner's, made once for the many single steps of a parallel run.
    func runSteps(_ requests: [RequestTemplate], variables: inout VariableContext, outcomes: inout [RunOutcome],
                  chain: [RunLink], failFast: Bool, sender given: RequestSender? = nil,
                  onOutcome: (RunOutcome) -> Void) async -> Bool {
        var steps = NextRequestSteps(requests: requests, file: file, elsewhere: requestsElsewhere)
        steps.sideBySide = runsSideBySide
        // One sender for the whole file, not one put together (the file and every hook copied) per request.
        let sender = given ?? self.sender
        while let template = steps.next() {
            if Task.isCancelled { return false }
            if template.isRunBlock {
                let goOn = await runBlock(template, variables: &variables, outcomes: &outcomes, chain: chain,
                                          failFast: failFast, onOutcome: onOutcome)
                if !goOn { return false }
                continue
            }
            switch disabled(template, context: &variables) {
            case nil: break
            case .success(let reason)?:
                var outcome = RunOutcome(template: template, context: RequestContext())
                outcome.skipped = reason
                outcomes.append(outcome)
                onOutcome(outcome)
                continue
            case .failure(let error)?:
                var outcome = RunOutcome(template: template, context: RequestContext())
                outcome.failure = .script(error)
                outcome.scripts.error = error
                outcomes.append(outcome)
                onOutcome(outcome)
                if failFast { return false }
                continue
            }
            if let wait = template.tags[Self.sleepTag].flatMap(Double.init), wait > 0 {
                try? await Task.sleep(for: .milliseconds(Int(min(wait, 3_600_000))))
            }
            if !template.runsBefore.isEmpty {
                var block = template
                block.runs = template.runsBefore
                let goOn = await runBlock(block, variables: &variables, outcomes: &outcomes, chain: chain,
                                          failFast: failFast, onOutcome: onOutcome)
                if !goOn { return false }
            }
            if !template.references.isEmpty {
                switch await runReferences(of: template, variables: &variables, outcomes: &outcomes, chain: chain,
                                           failFast: failFast, onOutcome: onOutcome) {
                case .ready: break
                case .stopped: return false
                case .failed(let diagnostic):
                    var outcome = RunOutcome(template: template, context: RequestContext())
                    outcome.failure = .collection(.syntax(diagnostic))
                    if let name = template.name {
                        variables.responses.recordFailure(name: name, reason: diagnostic.message)
                    }
                    outcomes.append(outcome)
                    onOutcome(outcome)
                    if failFast { return false }
                    continue
                }
            }
            if let loop = template.loop {
                let goOn = await runLoop(template, loop: loop, variables: &variables, outcomes: &outcomes,
                                         failFast: failFast, onOutcome: onOutcome)
                if !goOn { return false }
                continue
            }
            var outcome = await sender.send(template, variables: &variables)
            if case .collection(.unknownVariable(let name, let request)) = outcome.failure,
               let unset = unsetByScript(name, request: request, ran: outcomes) {
                outcome.failure = .collection(unset)
            }
            if let name = template.name, let response = outcome.response {
                variables.responses.record(name: name, response: response, request: outcome.resolved?.request)
            } else if let name = template.name, let failure = outcome.failure {
                variables.responses.recordFailure(name: name, reason: failure.summary)
            }
            if keepsEveryOutcome || !outcome.succeeded || file.hasScripts(template) || outcome.skipped != nil {
                outcomes.append(outcome)
            }
            onOutcome(outcome)
            if failFast && !outcome.succeeded { return false }
            // `postman.setNextRequest`: jump to that request, or end the run of this file.
            if let next = outcome.scripts.nextRequest, let problem = steps.jump(next, from: template) {
                var stopped = RunOutcome(template: template, context: RequestContext())
                stopped.failure = .collection(.syntax(Diagnostic(file: file.path, line: template.lines.lowerBound,
                                                                 message: problem)))
                outcomes.append(stopped)
                onOutcome(stopped)
                return !failFast
            }
        }
        return true
    }

    /// An unknown variable that a script of the file sets: names that script and whether it ran.
    private func unsetByScript(_ name: String, request: String, ran: [RunOutcome]) -> CollectionError? {
        for template in file.requests {
            guard let script = template.scripts.first(where: { $0.mentionsSetting(name) }) else { continue }
            let place = "\(file.path):\(script.line)"
            let setter = "the \(script.phase.rawValue) of '\(template.displayName)' (\(place))"
            let why: String
            if let outcome = ran.last(where: { $0.template.id == template.id }) {
                why = outcome.scripts.error.map { "stopped: \($0.message)" }
                    ?? (outcome.response == nil ? "did not run: its request failed"
                                                : "ran but did not set it")
            } else {
                why = "did not run earlier in this run; run it first (or run the whole file)"
            }
            return .scriptVariableUnset(name: name, request: request, setter: setter, why: why)
        }
        return nil
    }

    /// Sends one request: `sender` is the one send path.
    func runOne(_ template: RequestTemplate, variables: inout VariableContext) async -> RunOutcome {
        await sender.send(template, variables: &variables)
    }
}

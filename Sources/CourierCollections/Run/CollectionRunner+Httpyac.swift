import CourierBody
import CourierHTTP
import CourierScript
import Foundation

/// httpyac's `# @ref` / `# @forceRef` (the named request runs first) and `# @loop` (the request runs once
/// per item), in `courier run` and, through `runReferences`, in the explorer.
extension CollectionRunner {
    /// How a request's references went.
    enum ReferencesOutcome {
        /// All answered (or had answered before): send the request.
        case ready
        /// One failed or names nothing: the request is not sent, for this reason (at the tag's line).
        case failed(Diagnostic)
        /// The run stops (fail fast, cancelled).
        case stopped
    }

    /// Runs what `template`'s `# @ref` lines name that has no response yet (every `# @forceRef`), in order,
    /// reporting their outcomes like any request's.
    func runReferences(of template: RequestTemplate, variables: inout VariableContext,
                       outcomes: inout [RunOutcome], chain: [RunLink], failFast: Bool,
                       onOutcome: (RunOutcome) -> Void) async -> ReferencesOutcome {
        for reference in template.references {
            func failure(_ message: String) -> ReferencesOutcome {
                .failed(Diagnostic(file: file.path, line: reference.line, message: message))
            }
            if !reference.force && variables.responses.entry(reference.name) != nil { continue }
            guard case .success(let (runner, requests)) = target(of: RunDirective(target: .request(reference.name)))
            else {
                let close = NameSuggestions.closest(to: reference.name,
                                                    in: file.requests.compactMap(\.name) + imports.names)
                return failure("'# @ref \(reference.name)' names no request of this file or the files it imports"
                    + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?"))
            }
            let link = RunLink(template)
            if requests.contains(where: { RunLink($0) == link }) || chain.contains(link) {
                return failure("'# @ref \(reference.name)' comes back to this request: a reference cycle")
            }
            guard chain.count < Self.maximumRunDepth else {
                return failure("'# @ref' lines nest more than \(Self.maximumRunDepth) deep; is there a cycle?")
            }
            let before = outcomes.count
            let goOn = await runner.runSteps(requests, variables: &variables, outcomes: &outcomes,
                                             chain: chain + [link], failFast: failFast, onOutcome: onOutcome)
            if !goOn { return .stopped }
            if let failed = outcomes[before...].last(where: { !$0.succeeded }) {
                let why = failed.failure?.summary ?? "it failed"
                return failure("'# @ref \(reference.name)': the request it runs first failed (\(why)), so this "
                    + "one is not sent")
            }
        }
        return .ready
    }

    /// Runs a `# @loop` request once per item (while its condition holds), with `{{$index}}` and the item's
    /// variable set, naming each response NAME0, NAME1, … and NAME after the first. False when the run stops.
    func runLoop(_ template: RequestTemplate, loop: RequestLoop, variables: inout VariableContext,
                 outcomes: inout [RunOutcome], failFast: Bool, onOutcome: (RunOutcome) -> Void) async -> Bool {
        var setup = ScriptReport()
        ScriptRunner(file: file, baseFolder: baseFolder).runOnceScripts(before: template, context: &variables,
                                                                        report: &setup)
        func fail(_ error: CollectionError) -> Bool {
            var outcome = RunOutcome(template: template, context: RequestContext())
            outcome.failure = .collection(error)
            outcome.scripts = setup
            outcomes.append(outcome)
            onOutcome(outcome)
            return !failFast
        }
        var items: [String]?
        if case .whileTrue = loop.kind {
            if let problem = whileLoopProblem(template, loop: loop) { return fail(problem) }
        } else {
            switch loopItems(loop, of: template, context: variables) {
            case .success(let found): items = found
            case .failure(let error): return fail(error)
            }
        }
        let saved = variables.overrides
        defer { variables.overrides = saved }
        var index = 0
        passes: while true {
            if Task.isCancelled { return false }
            variables.overrides = saved
            let item: String
            if let items {
                guard index < items.count else { break }
                item = items[index]
            } else {
                switch whileHolds(loop, of: template, pass: index, context: variables) {
                case .success(true): item = String(index)
                case .success(false): break passes
                case .failure(let error): return fail(error)
                }
            }
            // `--var` still beats the loop's values.
            if saved[RequestLoop.indexVariable] == nil {
                variables.overrides[RequestLoop.indexVariable] = String(index)
            }
            if case .forOf(let name, _) = loop.kind, saved[name] == nil { variables.overrides[name] = item }
            var pass = template
            if let name = template.name { pass.name = name + String(index) }
            var outcome = await runOne(pass, variables: &variables)
            if index == 0 {
                // What the file's once-scripts logged and tested shows with the first pass.
                outcome.scripts = ScriptReport(tests: setup.tests + outcome.scripts.tests,
                                               logs: setup.logs + outcome.scripts.logs,
                                               error: setup.error ?? outcome.scripts.error)
                setup = ScriptReport()
            }
            if let response = outcome.response {
                for name in [pass.name, index == 0 ? template.name : nil].compactMap({ $0 }) {
                    variables.responses.record(name: name, response: response, request: outcome.resolved?.request)
                }
            }
            outcomes.append(outcome)
            onOutcome(outcome)
            if failFast && !outcome.succeeded { return false }
            index += 1
        }
        if let name = template.name {
            let entries = (0..<index).compactMap { variables.responses.entry(name + String($0)) }
            variables.globals[name + Self.loopListSuffix] = Self.httpyacResponses(entries)
        }
        return true
    }

    /// httpyac names the list of a looped request's responses NAMEList (`# @loop for item of loginList`).
    static let loopListSuffix = "List"

    /// Responses as httpyac's scripts see them (`statusCode`, `headers` by lower-case name, `body`,
    /// `parsedBody` when it is JSON), as a JSON array.
    static func httpyacResponses(_ entries: [ResponseStore.Entry]) -> String {
        let objects = entries.map { entry -> [String: Any] in
            var headers: [String: Any] = [:]
            for field in entry.headers where headers[field.name.lowercased()] == nil {
                headers[field.name.lowercased()] = field.value
            }
            var object: [String: Any] = ["statusCode": entry.status, "headers": headers,
                                         "body": String(decoding: entry.body, as: UTF8.self)]
            object["parsedBody"] = try? JSONSerialization.jsonObject(with: entry.body, options: [.fragmentsAllowed])
            return object
        }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The items a loop runs over: 0..<N, or the array its expression gives (each item as text: a string
    /// as it is, anything else as JSON).
    private func loopItems(_ loop: RequestLoop, of template: RequestTemplate,
                           context: VariableContext) -> Result<[String], CollectionError> {
        switch loop.kind {
        case .count(let count):
            return .success((0..<count).map(String.init))
        case .whileTrue:
            return .success([])
        case .forOf(_, let iterable):
            let place = { (message: String) in
                CollectionError.syntax(Diagnostic(file: self.file.path, line: loop.line, message: message))
            }
            let scripts = ScriptRunner(file: file, baseFolder: baseFolder)
            let json: String
            switch scripts.evaluate(iterable, for: template, context: context, line: loop.line) {
            case .success(let value): json = value
            case .failure(let error):
                return .failure(place("'# @loop for … of \(iterable)': \(error.message)"))
            }
            guard let array = (try? JSONValue.parse(Data(json.utf8)))?.arrayValue else {
                return .failure(place("'# @loop for … of \(iterable)': \(iterable) is not a list (it is \(json))"))
            }
            return .success(array.map { $0.stringValue ?? $0.text })
        }
    }

    /// httpyac's `# @disabled` (always) and `# @disabled EXPRESSION` (when the JavaScript is true): why the
    /// request is skipped, or the error evaluating the expression; nil to send it. The file's once-scripts
    /// run first (the condition may read what they export), and `{{ … }}` values are evaluated as when sent
    /// (`@callRequest = {{false}}`).
    func disabled(_ template: RequestTemplate, context: inout VariableContext) -> Result<String, ScriptError>? {
        guard let condition = template.tags[Self.disabledTag] else { return nil }
        let written = condition.trimmingCharacters(in: .whitespaces)
        if written.isEmpty || written == "true" { return .success("disabled (# @disabled)") }
        let scripts = ScriptRunner(file: file, baseFolder: baseFolder)
        var setup = ScriptReport()
        scripts.runOnceScripts(before: template, context: &context, report: &setup)
        if let error = setup.error { return .failure(error) }
        var evaluated = context
        evaluated.scriptExpressions = .evaluated
        switch scripts.evaluate(written, for: template, context: evaluated, line: template.lines.lowerBound) {
        case .success(let value):
            let isTrue = !["false", "0", "null", "\"\"", "undefined", ""].contains(value)
            return isTrue ? .success("disabled (# @disabled \(written))") : nil
        case .failure(let error): return .failure(error)
        }
    }

    /// httpyac's `# @disabled` tag.
    public static let disabledTag = "disabled"
    /// httpyac's `# @sleep MILLISECONDS`: a wait before the request is sent.
    public static let sleepTag = "sleep"
}

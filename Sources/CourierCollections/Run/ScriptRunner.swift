import CourierHTTP
import CourierMessage
import CourierScript
import Foundation

/// What the scripts of one request did: their tests, log lines and the error that stopped one.
public struct ScriptReport: Sendable, Hashable {
    public var tests: [ScriptTestResult]
    public var logs: [String]
    public var error: ScriptError?
    /// What `postman.setNextRequest` asked for last.
    public var nextRequest: NextRequest?

    public init(tests: [ScriptTestResult] = [], logs: [String] = [], error: ScriptError? = nil) {
        self.tests = tests
        self.logs = logs
        self.error = error
    }

    /// `3 tests passed, 1 failed`, or nil when the request has no tests.
    public var testSummary: String? {
        guard !tests.isEmpty else { return nil }
        let failed = tests.filter { !$0.passed }.count
        let passed = tests.count - failed
        var text = "\(passed) \(passed == 1 ? "test" : "tests") passed"
        if failed > 0 { text += ", \(failed) failed" }
        return text
    }

    mutating func absorb(_ result: ScriptResult) {
        tests += result.tests
        logs += result.logs
        if error == nil { error = result.error }
        if let next = result.nextRequest { nextRequest = next }
    }
}

/// Runs a request's scripts with CourierScript: builds their input from the template, the resolved request
/// and the response, reads handler files beside the `.http` file, and hands back what they set. Used by
/// `courier run` and the explorer alike, off the UI thread.
public struct ScriptRunner: Sendable {
    public var file: HTTPFile
    /// The folder `> ./handler.js` files are read from.
    public var baseFolder: URL
    /// Asked while a script runs: true stops it (the explorer's cancel).
    public var isCancelled: @Sendable () -> Bool
    /// How scripts send requests of their own (`pm.sendRequest`); nil where they cannot.
    var sending: (@Sendable (RequestTemplate) -> ScriptSending)?

    public init(file: HTTPFile, baseFolder: URL, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.file = file
        self.baseFolder = baseFolder
        self.isCancelled = isCancelled
    }

    /// These scripts, stopped (reported as cancelled) once `flag` is set.
    func stopped(by flag: CancelFlag) -> ScriptRunner {
        var runner = self
        runner.isCancelled = { flag.isSet }
        return runner
    }

    /// Seconds a request's scripts may run, from `# @script-timeout N` (default 5).
    public static func timeLimit(for template: RequestTemplate) -> Double {
        guard let value = template.tags["script-timeout"].flatMap({ Double($0) }), value > 0 else {
            return ScriptEngine.defaultTimeLimit
        }
        return value
    }

    /// Runs the pre-request scripts, then resolves the request with the variables they set and applies the
    /// headers they changed. `context.globals` is updated with what the scripts set.
    public func prepare(_ template: RequestTemplate, context: inout VariableContext,
                        report: inout ScriptReport) throws(CollectionError) -> ResolvedRequest {
        // Handler files outside what the collection may read stop the request before anything is sent.
        for script in template.scripts where Self.luaScript(script) == nil {
            guard case .file(let path) = script.source else { continue }
            _ = try context.fileAccess.read(path, from: baseFolder, streamed: false)
                .file(.read, path: path, request: template.displayName, line: script.line)
        }
        let scripts = preRequestScripts(of: template, context: &context)
        var prepared = template
        guard !scripts.isEmpty else {
            return try Resolver(file: file, baseFolder: baseFolder, context: context).resolve(template)
        }
        var variables = Dictionary(template.variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        var changedHeaders: HTTPHeaders?
        var changed = RequestChanges()
        var previewHeaders = HTTPHeaders()
        for script in scripts {
            // A best-effort preview gives scripts the substituted URL, headers and body when they resolve.
            let resolver = Resolver(file: file, baseFolder: baseFolder, context: context)
            let preview = try? resolver.resolve(prepared)
            if changedHeaders == nil { previewHeaders = preview?.request.headers ?? HTTPHeaders() }
            let request = preview == nil ? partlySubstituted(prepared, context: context)
                                         : scriptRequest(prepared, preview: preview)
            var input = ScriptInput(phase: .preRequest, request: request,
                                    environment: environmentValues(context), globals: context.globals,
                                    requestVariables: variables, timeLimit: Self.timeLimit(for: template),
                                    isCancelled: isCancelled)
            context.iteration.apply(to: &input)
            describeCollection(of: template, context: context, into: &input)
            let sent = ScriptSentLog()
            input.services = services(for: template, context: context, sent: sent)
            if script.dialect == .httpyac { describeHttpyacScope(of: prepared, context: context, into: &input) }
            let result = run(script, input: input, access: context.fileAccess, report: &report)
            report.logs += sent.take()
            context.globals = result.globals
            for (name, value) in result.requestVariables where variables[name] != value {
                variables[name] = value
                prepared.variables.append(VariableDefinition(name: name, value: value, line: script.line))
            }
            if let headers = result.headers { changedHeaders = headers }
            changed.absorb(result)
            if let error = result.error { throw .script(error) }
            if result.cancelled {
                throw .cancelledByScript(request: template.displayName, place: "\(file.path):\(script.line)")
            }
        }
        var resolved = try Resolver(file: file, baseFolder: baseFolder, context: context).resolve(prepared)
        resolved.template = template
        if let url = changed.url, url.contains("{{") {
            // A URL a Postman script changed keeps the variables its scopes do not hold (the request's own).
            var interpolator = Interpolator(requestName: template.displayName, local: prepared.variables,
                                            file: file.fileVariables, context: context, folder: baseFolder,
                                            elsewhere: file.definitionElsewhere(than: prepared))
            changed.url = try interpolator.expand(url)
        }
        try changed.apply(to: &resolved.request, request: template.displayName)
        if let changedHeaders {
            // A header the script left as it saw it takes its value from the final resolution, which
            // includes the variables the script set.
            var headers = HTTPHeaders()
            for header in changedHeaders {
                let untouched = previewHeaders[header.name] == header.value
                let latest = untouched ? resolved.request.headers[header.name] : nil
                headers.add(header.name, latest ?? header.value)
            }
            resolved.request.headers = headers
        }
        return resolved
    }

    /// Runs the response handlers on `response`; `context.globals` is updated with what they set.
    public func handle(_ response: HTTPResponse, of resolved: ResolvedRequest, context: inout VariableContext,
                       report: inout ScriptReport) {
        let scripts = resolved.template.scripts.filter { $0.phase == .response }
            + file.fileScripts.filter { $0.phase == .response }
        guard !scripts.isEmpty else { return }
        let data = (try? response.body.readAll()) ?? Data()
        let body = String(decoding: data, as: UTF8.self)
        let scriptResponse = ScriptResponse(head: response.head, body: body,
                                            milliseconds: Int(response.timing.total.milliseconds))
        for script in scripts {
            var variables: [String: String] = [:]
            if let xpath = script.xpath {
                switch XPathQuery(xpath.expression).evaluate(data) {
                case .success(let value): variables[HttpyacAssertion.xpathVariable] = value
                case .failure(let failure):
                    // The line's test fails, naming the expression; the other handlers still run.
                    report.tests.append(ScriptTestResult(name: xpath.test, passed: false,
                                                         message: "XPath '\(xpath.expression)': \(failure.message)"))
                    continue
                }
            }
            if let expected = script.assertionExpected {
                // `?? status == {{expected}}`: the value substituted as the request's were (a failure is the test's).
                var interpolator = Interpolator(requestName: resolved.template.displayName,
                                                local: resolved.template.variables, file: file.fileVariables,
                                                context: context, folder: baseFolder,
                                                elsewhere: file.definitionElsewhere(than: resolved.template))
                variables[HttpyacAssertion.expectedVariable] = (try? interpolator.expand(expected)) ?? expected
            }
            let request = scriptRequest(resolved.template, preview: resolved)
            var input = ScriptInput(phase: .response, request: request, response: scriptResponse,
                                    environment: environmentValues(context), globals: context.globals,
                                    requestVariables: variables, timeLimit: Self.timeLimit(for: resolved.template),
                                    isCancelled: isCancelled)
            context.iteration.apply(to: &input)
            describeCollection(of: resolved.template, context: context, into: &input)
            let sent = ScriptSentLog()
            input.services = services(for: resolved.template, context: context, sent: sent)
            if script.dialect == .httpyac { describeHttpyacScope(of: resolved.template, context: context, into: &input) }
            let result = run(script, input: input, access: context.fileAccess, report: &report)
            report.logs += sent.take()
            context.globals = result.globals
            if result.error != nil { return }
        }
    }

    func run(_ script: RequestScript, input: ScriptInput, access: CollectionFileAccess,
                     report: inout ScriptReport) -> ScriptResult {
        let result: ScriptResult
        if let lua = Self.luaScript(script) {
            var failed = ScriptResult(globals: input.globals, requestVariables: input.requestVariables)
            failed.error = ScriptError(reason: .unsupported, message: "kulala.nvim's Lua scripts (\(lua)) are not "
                                           + "supported by Courier: write the script in JavaScript",
                                       file: file.path, line: script.line)
            report.absorb(failed)
            return failed
        }
        switch script.source {
        case .inline(let code):
            let source = ScriptSource(code: code, file: file.path, line: script.line)
            result = ScriptEngine.run(source, input: input)
        case .file(let path):
            let decision = access.read(path, from: baseFolder, streamed: false)
            guard case .allowed(let url) = decision, let data = try? CollectionFileAccess.contents(of: url) else {
                let why = switch decision {
                case .needsConfirmation(_, let reason), .refused(let reason): ": " + reason
                case .allowed: ""
                }
                var failed = ScriptResult(globals: input.globals, requestVariables: input.requestVariables)
                failed.error = ScriptError(reason: .exception, message: "cannot read script file \(path)\(why)",
                                           file: file.path, line: script.line)
                report.absorb(failed)
                return failed
            }
            let source = ScriptSource(code: String(decoding: data, as: UTF8.self), file: path, line: 1)
            result = ScriptEngine.run(source, input: input)
        }
        report.absorb(result)
        return result
    }

    /// What `template`'s scripts may ask of Courier: dynamic variables always, requests where a client is given.
    func services(for template: RequestTemplate, context: VariableContext, sent: ScriptSentLog? = nil)
        -> ScriptServices {
        if let sending { return sending(template).services(for: context, isCancelled: isCancelled, sent: sent) }
        return ScriptServices(dynamicValue: ScriptSending.dynamicValues(context.dynamic))
    }

    /// The environment a script reads (`pm.environment`, `request.environment`): the selected environment's
    /// values under `--var`'s, as newman's `--env-var` sets them; a `--data` row's values stay the row's.
    func environmentValues(_ context: VariableContext) -> [String: String] {
        var values = context.environment.values.mapValues(\.value)
        for (name, value) in context.overrides where context.iteration.values[name] == nil {
            values[name] = value
        }
        return values
    }

    func scriptRequest(_ template: RequestTemplate, preview: ResolvedRequest?) -> ScriptRequest {
        let rawBody: String? = switch template.body {
        case .none: nil
        case .text(let text): text
        case .file(let path, _): "< " + path
        case .encodedFile: template.body.fileReferenceLine
        }
        let previewHeaders = preview?.request.headers
        let headers = template.headers.map { field in
            ScriptRequest.Header(name: field.name, raw: field.value,
                                 value: previewHeaders?[field.name] ?? field.value)
        }
        let body = preview.flatMap { resolved -> String? in
            switch resolved.request.body {
            case .data(let data): return String(decoding: data, as: UTF8.self)
            // A body file streamed when sent: scripts see its text when it is small enough to be text.
            case .file(let url): return Self.scriptBodyText([.file(url)])
            case .parts(let parts): return Self.scriptBodyText(parts)
            case .empty: return nil
            }
        }
        return ScriptRequest(name: template.name, method: template.method.rawValue, rawURL: template.url,
                             url: preview?.request.url.absoluteString, headers: headers, rawBody: rawBody,
                             body: body ?? rawBody)
    }

    /// What a pre-request script sees of a request that does not resolve yet (a header waits for a value the
    /// script sets, say): every reference known now substituted, the others as written, as the JetBrains
    /// client's `tryGetSubstituted()` gives. A signature over the URL is then made over the URL that is sent.
    func partlySubstituted(_ template: RequestTemplate, context: VariableContext) -> ScriptRequest {
        var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                        file: file.fileVariables, context: context, folder: baseFolder,
                                        elsewhere: file.definitionElsewhere(than: template))
        var request = scriptRequest(template, preview: nil)
        request.url = VariablePreview.expandKnown(request.rawURL, with: &interpolator, dynamic: false)
        request.headers = request.headers.map { header in
            var header = header
            header.value = VariablePreview.expandKnown(header.raw, with: &interpolator, dynamic: false)
            return header
        }
        if case .text(let text) = template.body {
            request.body = VariablePreview.expandKnown(text, with: &interpolator, dynamic: false)
        }
        return request
    }

    /// The largest body file whose text scripts see as `request.body`.
    static let scriptBodyLimit = 1 << 20

    /// The text of a body streamed from files, when it is at most `scriptBodyLimit` bytes; nil otherwise.
    static func scriptBodyText(_ parts: [RequestBodyPart]) -> String? {
        CollectionFileAccess.contents(of: parts, limit: Int64(scriptBodyLimit)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// How a kulala.nvim Lua script shows itself (`-- lua` first, or a `.lua` file), or nil for JavaScript.
    static func luaScript(_ script: RequestScript) -> String? {
        switch script.source {
        case .file(let path): return path.hasSuffix(".lua") ? path : nil
        case .inline(let code):
            let first = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
            return first == "-- lua" ? "'-- lua'" : nil
        }
    }
}

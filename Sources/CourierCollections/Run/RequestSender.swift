import CourierHTTP
import CourierSecurity
import Foundation

/// Sends one request as its file says, the one way Courier does it (the explorer, `courier run`, the
/// WebSocket pane and `courier export --models` all come here through `CollectionRunner`): pre-request
/// scripts, resolution, the client, response handlers and `??` tests, `>> file` redirects, `@expect-status`;
/// the result is a typed `RunOutcome`. Scripts run on a thread of their own, never on the cooperative pool.
public struct RequestSender: Sendable {
    public var file: HTTPFile
    /// The folder relative paths (`< ./body.json`, `>> ./out.json`, `> ./handler.js`) are read against.
    public var baseFolder: URL
    /// `--show-secrets`: `>> file` outputs keep the body as it came; otherwise the request's secrets and
    /// the private environment's values are masked in them, as in every other output.
    public var showSecrets = false
    /// Told when each request is about to go out.
    public var observer: (any RunObserver)?
    let send: CollectionRunner.Send
    let exchange: CollectionRunner.Exchange?
    /// Calls `GRPC` requests (`GRPCRequestCall`); without it they are skipped.
    public var call: CollectionRunner.Call?
    /// The cookie jars the client sends with, for scripts' `pm.cookies.jar()`; nil where scripts have none.
    public var cookieJars: CookieJarStore?

    public init(file: HTTPFile, baseFolder: URL, exchange: CollectionRunner.Exchange? = nil,
                send: @escaping CollectionRunner.Send) {
        self.file = file
        self.baseFolder = baseFolder
        self.exchange = exchange
        self.send = send
    }

    /// Sends `template` with `variables` (updated with what its scripts set) and says what happened.
    public func send(_ template: RequestTemplate, variables: inout VariableContext) async -> RunOutcome {
        if template.kind == .websocket && exchange == nil {
            var outcome = RunOutcome(template: template, context: RequestContext())
            outcome.skipped = "WebSocket requests run with 'courier ws' or in the explorer"
            return outcome
        }
        if template.kind == .grpc && call == nil {
            var outcome = RunOutcome(template: template, context: RequestContext())
            outcome.skipped = "gRPC requests run with 'courier run' or 'courier grpc'"
            return outcome
        }
        // httpyac's `{{ expression }}` runs as scripts do: when a request is sent. Restored without a `defer`,
        // which made the returned outcome a copy of the one built (every field retained once more).
        let expressions = variables.scriptExpressions
        variables.scriptExpressions = .evaluated
        let sent = await perform(template, variables: &variables)
        variables.scriptExpressions = expressions
        return sent
    }

    /// `send` once the request is one this sender sends. Inlined: each async call is one more executor switch
    /// per request.
    @inline(__always)
    private func perform(_ template: RequestTemplate, variables: inout VariableContext) async -> RunOutcome {
        var outcome = RunOutcome(template: template, context: RequestContext())
        let scripted = file.hasScripts(template)
        do {
            let resolved = try await prepare(template, scripted: scripted, variables: &variables,
                                             report: &outcome.scripts)
            try setGlobalDefinitions(of: template, variables: &variables)
            // A GRAPHQL subscription runs as the WebSocket request it becomes.
            let subscription = try resolved.asGraphQLSubscription()
            outcome.resolved = subscription ?? resolved
            if subscription != nil && exchange == nil {
                outcome.skipped = "GraphQL subscriptions run with 'courier run', 'courier ws --graphql' or in the "
                    + "explorer"
                return outcome
            }
            observer?.willSend(resolved.request, secrets: resolved.secretSet, context: outcome.context)
            if template.kind == .websocket || subscription != nil, let exchange {
                let result = await exchange(subscription ?? resolved)
                outcome.webSocket = result
                if let failure = result.failure { outcome.failure = .webSocket(failure) }
                return outcome
            }
            var response = if template.kind == .grpc, let call {
                try await call(resolved)
            } else {
                try await send(resolved.request, outcome.context)
            }
            if let names = template.tags[HttpyacJWT.tag], let body = HttpyacJWT.expanded(response.body, names: names) {
                response.body = .data(body)
            }
            outcome.response = response
            if scripted {
                await handle(response, of: resolved, variables: &variables, report: &outcome.scripts)
            }
            if file.readsLastResponse {
                variables.responses.recordLast(response: response, request: resolved.request)
            }
            try setResponseVariables(of: template, response: response, request: resolved.request,
                                     variables: &variables)
            // A secret the handlers just stored (a token from this response) is masked in this outcome's
            // output too: its body, the handlers' log lines.
            outcome.resolved?.secrets.formUnion(variables.secretGlobalValues)
            if !template.responseRedirects.isEmpty {
                let masked = showSecrets ? [] : outcome.secrets.union(variables.environment.secretValues)
                let saved = Self.masking(response.body, secrets: masked)
                outcome.savedTo = try saveRedirects(of: template, body: saved, context: variables)
            }
            let failedTests = outcome.scripts.tests.filter { !$0.passed }.count
            if !Self.accepts(response.status, for: template) {
                outcome.failure = .status(response.status)
            } else if let error = outcome.scripts.error {
                outcome.failure = .script(error)
            } else if failedTests > 0 {
                outcome.failure = .tests(failed: failedTests)
            }
        } catch CollectionError.cancelledByScript(let request, let place) {
            outcome.skipped = "\(CollectionError.cancelledByScript(request: request, place: place))"
        } catch let error as CollectionError {
            outcome.failure = .collection(error)
        } catch let error as APIError {
            outcome.failure = .transport(error)
        } catch {
            outcome.failure = .transport(APIError(error))
        }
        return outcome
    }

    // MARK: Scripts

    /// What a script step leaves behind: its result, and the variables and report as the scripts left them.
    private struct Scripted<Value: Sendable>: Sendable {
        var result: Result<Value, CollectionError>
        var variables: VariableContext
        var report: ScriptReport
    }

    /// The runner of the request's scripts, which may send requests of their own (`pm.sendRequest`).
    private var scripts: ScriptRunner {
        var scripts = ScriptRunner(file: file, baseFolder: baseFolder)
        let send = self.send
        let jars = cookieJars
        scripts.sending = { ScriptSending(send: send, template: $0, cookieJars: jars) }
        return scripts
    }

    /// The pre-request scripts, then the resolution; on a thread of its own when the request has scripts, where
    /// cancelling this task (the explorer's Ctrl-C, a newer send) stops a running script. A request without
    /// scripts (none of its own, none of its file's) is only resolved, as `ScriptRunner.prepare` would resolve
    /// it, without a script runner set up for it.
    private func prepare(_ template: RequestTemplate, scripted: Bool,
                         variables: inout VariableContext, report: inout ScriptReport)
        async throws(CollectionError) -> ResolvedRequest {
        guard scripted else {
            return try Resolver(file: file, baseFolder: baseFolder, context: variables).resolve(template)
        }
        let scripts = self.scripts
        let step = await OwnThread.run { [variables, report] cancel in
            var variables = variables
            var report = report
            let scripts = scripts.stopped(by: cancel)
            do throws(CollectionError) {
                let resolved = try scripts.prepare(template, context: &variables, report: &report)
                return Scripted(result: .success(resolved), variables: variables, report: report)
            } catch {
                return Scripted(result: .failure(error), variables: variables, report: report)
            }
        }
        variables = step.variables
        report = step.report
        return try step.result.get()
    }

    /// The response handlers, on a thread of their own.
    private func handle(_ response: HTTPResponse, of resolved: ResolvedRequest,
                        variables: inout VariableContext, report: inout ScriptReport) async {
        let scripts = self.scripts
        let step = await OwnThread.run { [variables, report] cancel in
            var variables = variables
            var report = report
            let scripts = scripts.stopped(by: cancel)
            scripts.handle(response, of: resolved, context: &variables, report: &report)
            return Scripted(result: .success(()), variables: variables, report: report)
        }
        variables = step.variables
        report = step.report
    }

    // MARK: After the response

    /// Writes the body to each `>> file` of the template (paths may use variables, handlers' globals
    /// included), as the collection's file policy (`context.fileAccess`) allows.
    private func saveRedirects(of template: RequestTemplate, body: ResponseBody,
                               context: VariableContext) throws(CollectionError) -> [String] {
        var saved: [String] = []
        for redirect in template.responseRedirects {
            var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                            file: file.fileVariables, context: context, folder: baseFolder,
                                            elsewhere: file.definitionElsewhere(than: template))
            let path = try interpolator.expand(redirect.path)
            let written = try redirect.save(body, expandedPath: path, folder: baseFolder,
                                            access: context.fileAccess, request: template.displayName)
            // `>>` may have chosen a numbered name: report the file actually written, in the path's own folder.
            let folder = (path as NSString).deletingLastPathComponent
            saved.append(folder.isEmpty ? written.lastPathComponent
                                        : (folder as NSString).appendingPathComponent(written.lastPathComponent))
        }
        return saved
    }

    /// The body a `>> file` writes: the body itself, or in memory with every secret masked when it holds one.
    static func masking(_ body: ResponseBody, secrets: Set<String>) -> ResponseBody {
        let masker = SecretMasker(secrets: secrets)
        guard !masker.isEmpty, let data = try? body.readAll(),
              data.withUnsafeBytes({ masker.occurs(in: $0) }) else { return body }
        return .data(data.withUnsafeBytes { Data(masker.masked($0)) })
    }

    /// 1xx–3xx succeed unless `@expect-status` lists the statuses that do.
    public static func accepts(_ status: Int, for template: RequestTemplate) -> Bool {
        let expected = template.expectedStatuses
        return expected.isEmpty ? status < 400 : expected.contains(status)
    }
}

import CourierMessage
import Foundation
import Synchronization

/// Runs request scripts on JavaScriptCore: the JetBrains HTTP Client API (`client`, `request`,
/// `response`) and Postman's `pm`, each script in a fresh context with no file or network access but what
/// Courier lends it (`ScriptServices`: `pm.sendRequest` through its client).
public enum ScriptEngine {
    /// Seconds a script may run when its request has no `# @script-timeout`.
    public static let defaultTimeLimit = 5.0
    /// What `client.exit()` throws; not an error.
    static let exitMarker = "__courier_exit__"
    /// JavaScriptCore's message for an evaluation stopped by the time limit.
    static let terminatedMarker = "execution terminated"

    /// Runs `source` with `input`, returning what it set and tested; a script that throws, runs past its
    /// time limit or is cancelled comes back with `error` set and what it did before that (all of it is lost
    /// when a script process had to be killed).
    ///
    /// Where: a script whose source names promises (`PromiseJobGuard.usesPromises`) runs in a script process
    /// (`ScriptProcess`), where its promise jobs run and a kill stops it at its limit; any other script runs
    /// here, on the calling thread, where the jobs of a promise it reaches anyway never run.
    public static func run(_ source: ScriptSource, input: ScriptInput) -> ScriptResult {
        let promises = PromiseJobGuard.usesPromises(source.code)
        if promises, let executable = ScriptProcess.executable {
            return ScriptProcess.run(source, input: input, executable: executable)
        }
        let refusal = promises ? PromiseJobGuard.noProcessRefusal : PromiseJobGuard.unnamedRefusal
        return runHere(source, input: input, jobs: .dropped(refusal: refusal))
    }

    /// Runs `source` on this thread, its promise jobs run or dropped as `jobs` says.
    static func runHere(_ source: ScriptSource, input: ScriptInput, jobs: PromiseJobs) -> ScriptResult {
        var result = ScriptResult(globals: input.globals, requestVariables: input.requestVariables)
        guard let context = JavaScriptContext(timeLimit: max(input.timeLimit, 0.001),
                                              isCancelled: input.isCancelled) else {
            result.error = ScriptError(reason: .exception,
                                       message: "cannot load JavaScriptCore (\(JavaScriptContext.libraryName)); "
                                           + "install Debian's libjavascriptcoregtk-4.1-0 to run scripts",
                                       file: source.file, line: source.line)
            return result
        }
        context.installDigest()
        context.installModuleFunctions()
        context.installJSONPath()
        context.install(input.services)
        defer { context.forgetServices() }
        var setUp = [Preludes.limits]
        if case .dropped(let refusal) = jobs { setUp.append(Preludes.jobGuard(refusal: refusal)) }
        var failure: JavaScriptContext.Exception?
        for prepared in setUp + Preludes.apis where failure == nil {
            if case .failure(let exception) = context.evaluate(prepared) { failure = exception }
        }
        let boot = "__courier.boot(\(encode(input)))"
        if failure == nil, case .failure(let exception) = context.evaluate(boot, sourceURL: ScriptPrelude.sourceURL,
                                                                            line: 1) {
            failure = exception
        }
        if let failure {
            result.error = context.stop.map { stopped($0, line: source.firstCodeLine, source: source, input: input) }
                ?? ScriptError(reason: .exception, message: "internal: \(failure.message)",
                               file: source.file, line: source.line)
            return result
        }
        context.startUserTime()
        let promises = PromiseJobGuard.usesPromises(source.code)
        let code = input.dialect == .httpyac ? HttpyacPrelude.wrap(source.code, asynchronous: promises) : source.code
        var evaluation = if case .run = jobs {
            context.evaluateRunningJobs(code, sourceURL: source.file, line: source.line)
        } else {
            context.evaluate(code, sourceURL: source.file, line: source.line)
        }
        // Postman runs a script as the body of a function (an async one when it awaits at its top level), so a
        // script may `return` or `await` there; such a script does not compile as a plain one, so nothing of it
        // has run when it is tried again that way.
        var awaited = false
        if input.dialect != .httpyac, case .failure(let exception) = evaluation,
           exception.message.hasPrefix("SyntaxError") {
            var asynchronous = false
            if case .run = jobs { asynchronous = source.code.contains("await") }
            if asynchronous || source.code.contains("return") {
                let wrapped = asynchronous ? topLevelAwait(source.code) : "(function () {" + source.code + "\n})();"
                let retried = asynchronous
                    ? context.evaluateRunningJobs(wrapped, sourceURL: source.file, line: source.line)
                    : context.evaluate(wrapped, sourceURL: source.file, line: source.line)
                if case .failure(let again) = retried, again.message.hasPrefix("SyntaxError") {
                    // Not an await or a return at the top level: the script's own syntax error stands.
                } else {
                    evaluation = retried
                    awaited = asynchronous
                }
            }
        }
        // Timers fire once the body is done, before what an async body threw is looked at.
        if case .success = evaluation { evaluation = ScriptTimers.run(in: context, jobs: jobs, input: input) }
        if input.dialect == .httpyac, case .success = evaluation {
            evaluation = context.evaluate(HttpyacPrelude.rethrow, sourceURL: ScriptPrelude.sourceURL, line: 1)
        }
        if awaited, case .success = evaluation {
            evaluation = context.evaluate(awaitedRethrow, sourceURL: ScriptPrelude.sourceURL, line: 1)
        }
        if case .failure(let exception) = evaluation, !exception.message.contains(exitMarker) {
            result.error = error(from: exception, source: source, input: input, stop: context.stop)
        }
        if result.error == nil, let stop = context.stop {
            // Stopped as it ended: the check came after its last instruction.
            result.error = stopped(stop, line: source.firstCodeLine, source: source, input: input)
        }
        if context.stop != nil { context.allowReadingBack() }
        // Legacy `tests["name"] = …` count even when the script threw after setting them; and what
        // `postman.setNextRequest` asked for.
        let extras = "__courierPostmanLegacyFinish(__courier.state); "
            + "JSON.stringify(__courier.state.nextRequest || null)"
        if case .success(let next) = context.evaluate(extras, sourceURL: ScriptPrelude.sourceURL, line: 1) {
            result.nextRequest = NextRequest(json: next)
        }
        if context.stop != nil {
            // Tests may loop too; after a stop only the state the script left is read back.
            let state = "JSON.stringify({globals: __courier.state.globals, logs: __courier.state.logs})"
            read(context.evaluate(state, sourceURL: ScriptPrelude.sourceURL, line: 1), into: &result,
                 source: source, input: input, stop: nil)
            return result
        }
        read(context.evaluate("__courier.finish()", sourceURL: ScriptPrelude.sourceURL, line: 1),
             into: &result, source: source, input: input, stop: context.stop)
        if case .dropped = jobs, !promises,
           case .success("false") = context.evaluate("__courierJobsPossible()", sourceURL: ScriptPrelude.sourceURL,
                                                     line: 1) {
            context.handOn = true
        }
        return result
    }

    private static func read(_ evaluation: Result<String, JavaScriptContext.Exception>,
                             into result: inout ScriptResult, source: ScriptSource, input: ScriptInput,
                             stop: ScriptWatch.Stop?) {
        switch evaluation {
        case .failure(let exception):
            if result.error == nil {
                result.error = error(from: exception, source: source, input: input, stop: stop)
            }
        case .success(let json):
            let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8))
            guard let object = parsed as? [String: Any] else { return }
            if let globals = object["globals"] as? [String: String] { result.globals = globals }
            if let variables = object["variables"] as? [String: String] { result.requestVariables = variables }
            if let logs = object["logs"] as? [String] { result.logs = logs }
            if let tests = object["tests"] as? [[String: Any]] {
                result.tests = tests.map {
                    ScriptTestResult(name: $0["name"] as? String ?? "", passed: $0["passed"] as? Bool ?? false,
                                     message: $0["message"] as? String ?? "")
                }
            }
            if let headers = object["headers"] as? [[String]] {
                result.headers = HTTPHeaders(headers.filter { $0.count == 2 }.map { HTTPHeaders.Field($0[0], $0[1]) })
            }
            result.url = object["url"] as? String
            result.method = object["method"] as? String
            result.body = object["body"] as? String
            result.cancelled = object["cancelled"] as? Bool ?? false
        }
    }

    /// The error with the line of the user's file it happened on: the first stack frame in that file.
    private static func error(from exception: JavaScriptContext.Exception, source: ScriptSource,
                              input: ScriptInput, stop: ScriptWatch.Stop?) -> ScriptError {
        let line = line(in: exception.stack, file: source.file) ?? exception.line ?? source.line
        if exception.message.contains(terminatedMarker) || stop != nil {
            return stopped(stop ?? .timeLimit, line: line, source: source, input: input)
        }
        let unsupported = exception.message.hasPrefix("Unsupported:")
        return ScriptError(reason: unsupported ? .unsupported : .exception, message: exception.message,
                           file: source.file, line: line)
    }

    /// The error for a script that was stopped (by its watch, or by killing its process), on `line` of its file.
    static func stopped(_ stop: ScriptWatch.Stop, line: Int, source: ScriptSource,
                                input: ScriptInput) -> ScriptError {
        switch stop {
        case .cancelled:
            return ScriptError(reason: .cancelled, message: "script stopped: its request was cancelled",
                               file: source.file, line: line)
        case .timeLimit:
            let limit = input.timeLimit
            let seconds = limit.rounded() == limit ? String(Int(limit)) : String(limit)
            return ScriptError(reason: .timeLimit(limit),
                               message: "script stopped after its time limit of \(seconds) s "
                                   + "(raise it with '# @script-timeout SECONDS')",
                               file: source.file, line: line)
        }
    }

    /// The script as the body of an async function called at once, on the script's own first line; what it
    /// throws is kept for `awaitedRethrow`.
    static func topLevelAwait(_ code: String) -> String {
        "(async function () {" + code + "\n})().catch(function (e) { __courier.state.awaitFailure = { error: e }; });"
    }

    /// Throws what an awaiting script threw, once its jobs have run.
    static let awaitedRethrow = "if (__courier.state.awaitFailure) throw __courier.state.awaitFailure.error;"

    /// Stack lines look like `function@file:line:column`; the first in `file` is where the user's code was.
    static func line(in stack: String, file: String) -> Int? {
        for frame in stack.split(separator: "\n") {
            guard let range = frame.range(of: file + ":", options: .backwards) else { continue }
            let digits = frame[range.upperBound...].prefix { $0.isNumber }
            if let line = Int(digits) { return line }
        }
        return nil
    }

    /// The preludes as the engine's strings, made the first time a script runs (the library is loaded then).
    private enum Preludes {
        static let limits = PreparedScript(ScriptLimits.code, sourceURL: ScriptPrelude.sourceURL)
        /// The promise-job guard, one per refusal it says (there are two).
        private static let jobGuards = Mutex<[String: PreparedScript]>([:])

        static func jobGuard(refusal: String) -> PreparedScript {
            jobGuards.withLock { guards in
                if let made = guards[refusal] { return made }
                let made = PreparedScript(PromiseJobGuard.code(refusal: refusal), sourceURL: ScriptPrelude.sourceURL)
                guards[refusal] = made
                return made
            }
        }
        /// `client`, timers, `pm`, httpyac's API and Postman's sandbox, in that order.
        static let apis = [ScriptPrelude.code, ScriptTimers.code, PostmanPrelude.code, HttpyacPrelude.code,
                           postmanSandbox].map { PreparedScript($0, sourceURL: ScriptPrelude.sourceURL) }
    }

    /// Postman's legacy sandbox and `pm.sendRequest`'s request, `require` and crypto-js: one evaluation, made once.
    private static let postmanSandbox = [PostmanLegacyPrelude.code, PostmanSendRequestPrelude.code, RequirePrelude.code,
                                         PostmanInspectPrelude.code, PostmanExpectPrelude.code,
                                         PostmanRequestPrelude.code,
                                         PostmanCookiesPrelude.code, PostmanTV4Prelude.code,
                                         CryptoJSPrelude.code, NodeCryptoPrelude.code,
                                         "var __courierModuleTable = \(ScriptModules.preludeTable);"]
        .joined(separator: "\n")

    /// The input as a JavaScript object literal (JSON).
    private static func encode(_ input: ScriptInput) -> String {
        var request: [String: Any] = [
            "method": input.request.method, "rawURL": input.request.rawURL, "url": input.request.url,
            "headers": input.request.headers.map { ["name": $0.name, "raw": $0.raw, "value": $0.value] },
        ]
        if let name = input.request.name { request["name"] = name }
        if let raw = input.request.rawBody { request["rawBody"] = raw }
        if let body = input.request.body { request["body"] = body }
        var object: [String: Any] = [
            "phase": input.phase == .preRequest ? "pre" : "response", "request": request,
            "environment": input.environment, "globals": input.globals,
            "requestVariables": input.requestVariables,
            "iterationData": input.iterationData, "iteration": input.iteration, "iterationCount": input.iterationCount,
            "fileVariables": input.fileVariables, "environmentName": input.environmentName,
        ]
        if input.dialect == .httpyac {
            object["httpyac"] = ["scope": input.scope, "literals": input.literalNames.sorted(),
                                 "file": input.file, "folder": input.folder,
                                 "reserved": HttpyacPrelude.reserved] as [String: Any]
        }
        if let response = input.response {
            object["response"] = [
                "status": response.status, "body": response.body, "milliseconds": response.milliseconds,
                "headers": response.headers.map { ["name": $0.name, "value": $0.value] },
            ] as [String: Any]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

import CourierBody
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
            guard let finished = try? JSONDecoder().decode(Finished.self, from: Data(json.utf8)) else { return }
            if let globals = finished.globals { result.globals = globals }
            if let variables = finished.variables { result.requestVariables = variables }
            if let logs = finished.logs { result.logs = logs }
            if let tests = finished.tests { result.tests = tests }
            if let headers = finished.headers {
                result.headers = HTTPHeaders(headers.filter { $0.count == 2 }.map { HTTPHeaders.Field($0[0], $0[1]) })
            }
            result.url = finished.url
            result.method = finished.method
            result.body = finished.body
            result.cancelled = finished.cancelled ?? false
        }
    }

    /// What `__courier.finish()` hands back. Each member is read on its own: one that is missing or not of its
    /// type (a script may reach the state and put anything there) is left out, not the whole result.
    private struct Finished: Decodable {
        var globals: [String: String]?
        var variables: [String: String]?
        var logs: [String]?
        var tests: [ScriptTestResult]?
        var headers: [[String]]?
        var url: String?
        var method: String?
        var body: String?
        var cancelled: Bool?

        private enum Key: String, CodingKey {
            case globals, variables, logs, tests, headers, url, method, body, cancelled
        }

        private struct Test: Decodable {
            var name: String?
            var passed: Bool?
            var message: String?

            private enum Key: String, CodingKey { case name, passed, message }

            init(from decoder: any Decoder) throws {
                let members = try decoder.container(keyedBy: Key.self)
                name = try? members.decode(String.self, forKey: .name)
                passed = try? members.decode(Bool.self, forKey: .passed)
                message = try? members.decode(String.self, forKey: .message)
            }
        }

        init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: Key.self)
            globals = try? members.decode([String: String].self, forKey: .globals)
            variables = try? members.decode([String: String].self, forKey: .variables)
            logs = try? members.decode([String].self, forKey: .logs)
            tests = (try? members.decode([Test].self, forKey: .tests))?.map {
                ScriptTestResult(name: $0.name ?? "", passed: $0.passed ?? false, message: $0.message ?? "")
            }
            headers = try? members.decode([[String]].self, forKey: .headers)
            url = try? members.decode(String.self, forKey: .url)
            method = try? members.decode(String.self, forKey: .method)
            body = try? members.decode(String.self, forKey: .body)
            cancelled = try? members.decode(Bool.self, forKey: .cancelled)
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

    /// The input as a JavaScript object literal (JSON), written member by member (`JSONWriter`).
    static func encode(_ input: ScriptInput) -> String {
        var json = JSONWriter(capacity: 512 + (input.response?.body.utf8.count ?? 0) + (input.request.body?.utf8.count ?? 0))
        json.openObject()
        json.member("phase", input.phase == .preRequest ? "pre" : "response")
        json.key("request")
        json.openObject()
        json.member("method", input.request.method)
        json.member("rawURL", input.request.rawURL)
        json.member("url", input.request.url)
        json.key("headers")
        json.openArray()
        for header in input.request.headers {
            json.openObject()
            json.member("name", header.name)
            json.member("raw", header.raw)
            json.member("value", header.value)
            json.closeObject()
        }
        json.closeArray()
        if let name = input.request.name { json.member("name", name) }
        if let raw = input.request.rawBody { json.member("rawBody", raw) }
        if let body = input.request.body { json.member("body", body) }
        json.closeObject()
        json.key("environment")
        json.object(input.environment)
        json.key("globals")
        json.object(input.globals)
        json.key("requestVariables")
        json.object(input.requestVariables)
        json.key("iterationData")
        json.object(input.iterationData)
        json.member("iteration", input.iteration)
        json.member("iterationCount", input.iterationCount)
        json.key("fileVariables")
        json.object(input.fileVariables)
        json.member("environmentName", input.environmentName)
        if input.dialect == .httpyac {
            json.key("httpyac")
            json.openObject()
            json.key("scope")
            json.object(input.scope)
            json.member("literals", strings: input.literalNames.sorted())
            json.member("file", input.file)
            json.member("folder", input.folder)
            json.member("reserved", strings: HttpyacPrelude.reserved)
            json.closeObject()
        }
        if let response = input.response {
            json.key("response")
            json.openObject()
            json.member("status", response.status)
            json.member("body", response.body)
            json.member("milliseconds", response.milliseconds)
            json.key("headers")
            json.openArray()
            for header in response.headers {
                json.openObject()
                json.member("name", header.name)
                json.member("value", header.value)
                json.closeObject()
            }
            json.closeArray()
            json.closeObject()
        }
        json.closeObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

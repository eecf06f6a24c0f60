import Foundation

/// Runs request scripts on JavaScriptCore: the JetBrains HTTP Client API (`client`, `request`,
/// `response`) and Postman's `pm`, each script in a fresh context with no file or network access.
public enum ScriptEngine {
    /// Seconds a script may run when its request has no `# @script-timeout`.
    public static let defaultTimeLimit = 5.0
    /// What `client.exit()` throws; not an error.
    static let exitMarker = "__courier_exit__"
    /// JavaScriptCore's message for an evaluation stopped by the time limit.
    static let terminatedMarker = "execution terminated"

    /// Runs `source` with `input`, returning what it set and tested; a script that throws or runs past
    /// its time limit comes back with `error` set and what it did before that.
    public static func run(_ source: ScriptSource, input: ScriptInput) -> ScriptResult {
        guard let context = JavaScriptContext(timeLimit: max(input.timeLimit, 0.001)) else {
            var result = ScriptResult(globals: input.globals, requestVariables: input.requestVariables)
            result.error = ScriptError(reason: .exception,
                                       message: "cannot load JavaScriptCore (\(JavaScriptContext.libraryName)); "
                                           + "install Debian's libjavascriptcoregtk-4.1-0 to run scripts",
                                       file: source.file, line: source.line)
            return result
        }
        context.installDigest()
        context.installModuleFunctions()
        var result = ScriptResult(globals: input.globals, requestVariables: input.requestVariables)
        for prelude in [ScriptPrelude.code, PostmanPrelude.code, HttpyacPrelude.code, postmanSandbox] {
            let evaluation = context.evaluate(prelude, sourceURL: ScriptPrelude.sourceURL, line: 1)
            if case .failure(let exception) = evaluation {
                result.error = ScriptError(reason: .exception, message: "internal: \(exception.message)",
                                           file: source.file, line: source.line)
                return result
            }
        }
        if case .failure(let exception) = context.evaluate("__courier.boot(\(encode(input)))",
                                                           sourceURL: ScriptPrelude.sourceURL, line: 1) {
            result.error = ScriptError(reason: .exception, message: "internal: \(exception.message)",
                                       file: source.file, line: source.line)
            return result
        }
        let code = input.dialect == .httpyac ? HttpyacPrelude.wrap(source.code) : source.code
        var evaluation = context.evaluate(code, sourceURL: source.file, line: source.line)
        if input.dialect == .httpyac, case .success = evaluation {
            evaluation = context.evaluate(HttpyacPrelude.rethrow, sourceURL: ScriptPrelude.sourceURL, line: 1)
        }
        if case .failure(let exception) = evaluation, !exception.message.contains(exitMarker) {
            result.error = error(from: exception, source: source, timeLimit: input.timeLimit)
        }
        // Legacy `tests["name"] = …` count even when the script threw after setting them; and what
        // `postman.setNextRequest` asked for.
        let extras = "__courierPostmanLegacyFinish(__courier.state); "
            + "JSON.stringify(__courier.state.nextRequest || null)"
        if case .success(let next) = context.evaluate(extras, sourceURL: ScriptPrelude.sourceURL, line: 1) {
            result.nextRequest = NextRequest(json: next)
        }
        if case .timeLimit = result.error?.reason {
            // Tests may loop too; after a stop only the state the script left is read back.
            let state = "JSON.stringify({globals: __courier.state.globals, logs: __courier.state.logs})"
            read(context.evaluate(state, sourceURL: ScriptPrelude.sourceURL, line: 1), into: &result,
                 source: source, timeLimit: input.timeLimit)
            return result
        }
        read(context.evaluate("__courier.finish()", sourceURL: ScriptPrelude.sourceURL, line: 1),
             into: &result, source: source, timeLimit: input.timeLimit)
        return result
    }

    private static func read(_ evaluation: Result<String, JavaScriptContext.Exception>,
                             into result: inout ScriptResult, source: ScriptSource, timeLimit: Double) {
        switch evaluation {
        case .failure(let exception):
            if result.error == nil {
                result.error = error(from: exception, source: source, timeLimit: timeLimit)
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
                result.headers = headers.filter { $0.count == 2 }.map { ScriptHeader($0[0], $0[1]) }
            }
            result.url = object["url"] as? String
            result.method = object["method"] as? String
            result.body = object["body"] as? String
            result.cancelled = object["cancelled"] as? Bool ?? false
        }
    }

    /// The error with the line of the user's file it happened on: the first stack frame in that file.
    private static func error(from exception: JavaScriptContext.Exception, source: ScriptSource,
                              timeLimit: Double) -> ScriptError {
        let line = line(in: exception.stack, file: source.file) ?? exception.line ?? source.line
        if exception.message.contains(terminatedMarker) {
            let seconds = timeLimit.rounded() == timeLimit ? String(Int(timeLimit)) : String(timeLimit)
            return ScriptError(reason: .timeLimit(timeLimit),
                               message: "script stopped after its time limit of \(seconds) s "
                                   + "(raise it with '# @script-timeout SECONDS')",
                               file: source.file, line: line)
        }
        let unsupported = exception.message.hasPrefix("Unsupported:")
        return ScriptError(reason: unsupported ? .unsupported : .exception, message: exception.message,
                           file: source.file, line: line)
    }

    /// Stack lines look like `function@file:line:column`; the first in `file` is where the user's code was.
    static func line(in stack: String, file: String) -> Int? {
        for frame in stack.split(separator: "\n") {
            guard let range = frame.range(of: file + ":", options: .backwards) else { continue }
            let digits = frame[range.upperBound...].prefix { $0.isNumber }
            if let line = Int(digits) { return line }
        }
        return nil
    }

    /// Postman's legacy sandbox, `require` and crypto-js: one evaluation, made once.
    private static let postmanSandbox = [PostmanLegacyPrelude.code, RequirePrelude.code, CryptoJSPrelude.code,
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
        ]
        if input.dialect == .httpyac {
            object["httpyac"] = ["scope": input.scope, "file": input.file, "folder": input.folder,
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

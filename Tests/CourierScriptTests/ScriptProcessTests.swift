import CourierMessage
import CourierTestSupport
import Foundation
import Testing
@testable import CourierScript

/// Scripts that use promises run in a script process (the built `courier`), where their callbacks and `await`
/// work, what they read and set crosses over exactly, a sync loop is still stopped on its line, and a cancel
/// kills the process at once.
@Suite struct ScriptProcessTests {
    /// Points the engine at the built `courier` for scripts that use promises, as `courier` points it at itself.
    static func useBuiltCourier() {
        ScriptProcess.executable = CourierCLI.executable
    }

    func run(_ code: String, dialect: ScriptDialect = .jetBrains, timeLimit: Double = ScriptEngine.defaultTimeLimit,
             isCancelled: @escaping @Sendable () -> Bool = { false }) -> ScriptResult {
        Self.useBuiltCourier()
        var input = ScriptInput(phase: .preRequest, request: ScriptRequest(method: "GET", rawURL: "http://h/"),
                                globals: ["seed": "1"], timeLimit: timeLimit, isCancelled: isCancelled)
        input.dialect = dialect
        return ScriptEngine.run(ScriptSource(code: code, file: "async.http", line: 10), input: input)
    }

    @Test func onlyScriptsThatNamePromisesGoToAProcess() {
        let named = ["await x", "p.then(f)", "async () => 1", "new Promise(r => r())", "import('m')", "eval(s)",
                     "new Function('return 1')", "x;\nawait\ty"]
        let unnamed = ["client.log('authentication')", "thenable.x", "asyncish()", "$then", "then_", "Promises",
                       "globalThis['Pro' + 'mise']", "évaluer", "awaitéd"]
        #expect(named.filter { !PromiseJobGuard.usesPromises($0) } == [])
        #expect(unnamed.filter { PromiseJobGuard.usesPromises($0) } == [])
    }

    @Test func promiseCallbacksAndCodeAfterAwaitRunInTheScriptsProcess() {
        // Given a script whose async function awaits, and a callback on a resolved promise
        let result = run("""
            (async function () { client.global.set("beforeAwait", "yes"); await null; client.global.set("afterAwait", "yes"); })();
            Promise.resolve(2).then(function (value) { client.log("then " + value); client.global.set("then", String(value)); });
            client.log("sync");
            """)
        // Then everything ran, callbacks after the script's own code, and the seed global came back
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.globals == ["seed": "1", "beforeAwait": "yes", "afterAwait": "yes", "then": "2"])
        #expect(result.logs == ["sync", "then 2"])
    }

    @Test func aLoopAfterAnAwaitIsStoppedByTheScriptProcessesOwnWatchKeepingWhatItLogged() {
        // Given an httpyac script that awaits, logs, then loops without end
        let result = run("""
            await null;
            console.log("resumed");
            while (true) {}
            """, dialect: .httpyac, timeLimit: 0.5)
        // Then the loop is stopped at the limit (inside a promise job, where no line is known: the script's
        // first), and what the script did before is kept
        guard case .timeLimit = result.error?.reason else {
            Issue.record("expected a time limit, got \(String(describing: result.error))")
            return
        }
        #expect(result.error?.line == 10)
        #expect(result.logs == ["resumed"])
    }

    @Test func aCancelledScriptProcessIsKilledAtOnceWhateverItsTimeLimit() {
        // Given an endless await loop allowed ten minutes, whose caller has given up on it
        let result = run("(async function () { for (;;) await null; })();", timeLimit: 600, isCancelled: { true })
        // Then its process is killed at the first look and the script says it was cancelled
        guard case .cancelled = result.error?.reason else {
            Issue.record("expected a cancel, got \(String(describing: result.error))")
            return
        }
        #expect(result.error?.message == "script stopped: its request was cancelled")
        #expect(result.error?.line == 10)
    }

    @Test func aScriptAndItsInputCrossToTheProcessAndItsResultBackExactly() throws {
        // Given an input with every field set, secrets and awkward text included
        let awkward = "tab\there \"quoted\" \\ back é 😀 \u{0} \u{1b}[31m \u{2028} 🇫🇷"
        var input = ScriptInput(
            phase: .response,
            request: ScriptRequest(name: "login", method: "POST", rawURL: "{{base}}/x", url: "http://h/x?a=1&b=%20",
                                   headers: [.init(name: "Authorization", raw: "Bearer {{token}}", value: "Bearer s3cr3t")],
                                   rawBody: "{\"p\": \"{{password}}\"}", body: "{\"p\": \"hunter2\"}"),
            response: ScriptResponse(status: 201, headers: [HTTPHeaders.Field("Set-Cookie", "sid=abc"), HTTPHeaders.Field("X", awkward)],
                                     body: awkward, milliseconds: 42),
            environment: ["apiKey": "k-123", "odd": awkward], globals: ["token": "s3cr3t", "": "empty name"],
            requestVariables: ["v": "1"], timeLimit: 2.75)
        input.dialect = .httpyac
        input.scope = ["user": #"{"name":"ada"}"#]
        input.file = "/work/api.http"
        input.folder = "/work"
        input.iterationData = ["row": awkward]
        input.iteration = 2
        input.iterationCount = 5
        let source = ScriptSource(code: "exports.x = '\(awkward)';", file: "/work/api.http", line: 7)
        // When it is written as the script process reads it, and read back
        let decoded = try JSONDecoder().decode(ScriptJob.self, from: JSONEncoder().encode(ScriptJob(source: source, input: input)))
        // Then every field is as it was
        #expect(decoded.source == source)
        let back = decoded.input
        #expect(back.phase == input.phase && back.request == input.request && back.response == input.response)
        #expect(back.environment == input.environment && back.globals == input.globals)
        #expect(back.requestVariables == input.requestVariables && back.timeLimit == input.timeLimit)
        #expect(back.dialect == input.dialect && back.scope == input.scope && back.file == input.file
                && back.folder == input.folder)
        #expect(back.iterationData == input.iterationData && back.iteration == 2 && back.iterationCount == 5)

        // And a result with every field set comes back as it was
        var result = ScriptResult(globals: ["token": "s3cr3t", "odd": awkward], requestVariables: ["v": awkward],
                                  tests: [ScriptTestResult(name: awkward, passed: false, message: "expected 1")],
                                  logs: [awkward, ""], headers: [HTTPHeaders.Field("Authorization", "Bearer s3cr3t")],
                                  error: ScriptError(reason: .timeLimit(0.1), message: awkward, file: "a.js", line: 3))
        result.url = "http://h/?q=\(awkward)"
        result.method = "PATCH"
        result.body = awkward
        result.cancelled = true
        result.nextRequest = .named(awkward)
        let resultBack = try JSONDecoder().decode(ScriptResult.self, from: JSONEncoder().encode(result))
        #expect(resultBack == result)
    }

    @Test func aPostmanScriptThatAwaitsReadsItsIterationAndChoosesTheNextRequest() {
        Self.useBuiltCourier()
        var input = ScriptInput(phase: .response, request: ScriptRequest(method: "GET", rawURL: "http://h/"),
                                response: ScriptResponse(status: 200, headers: [], body: "{}", milliseconds: 1))
        input.iterationData = ["user": "ada"]
        input.iteration = 1
        input.iterationCount = 3
        let code = """
            (async function () {
                await null;
                pm.globals.set("seen", pm.iterationData.get("user") + " " + pm.info.iteration + "/" + pm.info.iterationCount);
                postman.setNextRequest("Logout");
            })();
            """
        let result = ScriptEngine.run(ScriptSource(code: code, file: "p.http", line: 3), input: input)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.globals["seen"] == "ada 1/3")
        #expect(result.nextRequest == .named("Logout"))
    }

    @Test func withoutAScriptProcessPromiseCallbacksAreRefusedSayingWhy() async throws {
        let child = try await TestInOwnProcess.run("scriptsWithoutAProcessChildWhenStartedByItsTest")
        #expect(child.status == 0, "child ended with \(child.status): \(child.stdout)\(child.stderr)")
    }
}

/// The child's side: in a process where no script process is known (a program other than `courier` that did
/// not set one), a script that uses promises runs here, where its callbacks never run, and says why.
@Test func scriptsWithoutAProcessChildWhenStartedByItsTest() {
    guard TestInOwnProcess.isChild("scriptsWithoutAProcessChildWhenStartedByItsTest") else { return }
    ScriptProcess.executable = nil
    let input = ScriptInput(phase: .preRequest, request: ScriptRequest(method: "GET", rawURL: "http://h/"))
    let result = ScriptEngine.run(ScriptSource(code: "client.log('a');\nPromise.resolve(1).then(client.log);",
                                               file: "here.http", line: 1), input: input)
    #expect(result.logs == ["a"])
    #expect(result.error?.line == 2)
    #expect(result.error?.message == "TypeError: " + PromiseJobGuard.noProcessRefusal, "\(String(describing: result.error))")
}

import CourierDemo
import CourierHTTP
import CourierScript
import Foundation

/// Request scripts: what a response handler adds to a request, as a ratio to the request itself. The
/// request is a keep-alive POST /auth/login against the demo server through CurlTransport; the scripts
/// are an empty one (the cost of a fresh JavaScriptCore context with the `client`/`pm` prelude), a
/// typical handler (parse the JSON body, set a global, two `client.test`s), run on that response, and the same
/// handler written with Postman's `pm` (which a script builds the first time it reads it), and the same
/// handler setting its global in a promise's callback, which runs in a script process of the release `courier`
/// beside this benchmark (`ScriptProcess`: spawn, JavaScriptCore's start, the preludes, the JSON both ways).
enum ScriptBench {
    static let rounds = 200

    static func run() {
        let server: DemoServer
        do {
            server = try DemoServer.start()
        } catch {
            print("script: cannot start the demo server: \(error)")
            return
        }
        defer { server.stop() }
        let binary = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("script: needs the release courier beside this benchmark, for scripts that use promises")
            return
        }
        ScriptProcess.executable = URL(fileURLWithPath: binary)
        let transport = CurlTransport()
        let login = HTTPRequest(method: .post, url: server.baseURL.appendingPathComponent("auth/login"),
                                headers: ["Content-Type": "application/json"],
                                body: .data(Data(#"{"username": "bench"}"#.utf8)))
        let typical = """
            client.global.set("token", response.body.access_token);
            client.test("status", function () { client.assert(response.status === 200, "status " + response.status); });
            client.test("bearer", () => client.assert(response.body.token_type === "Bearer"));
            """
        let postman = """
            pm.test("status", () => pm.response.to.have.status(200));
            pm.environment.set("token", pm.response.json().access_token);
            """
        let promised = "Promise.resolve(response.body).then(body => client.global.set(\"token\", body.access_token));\n"
            + typical.split(separator: "\n").dropFirst().joined(separator: "\n")
        let clock = ContinuousClock()
        var request = Duration.zero, empty = Duration.zero, handler = Duration.zero, process = Duration.zero
        var postmanTest = Duration.zero
        var failures = 0
        for _ in 0..<rounds {
            // Taking turns round by round keeps a load spike on this shared machine from favouring one.
            var response: HTTPResponse?
            request += clock.measure {
                response = PipelineBench.blocking { try? await transport.send(login, context: RequestContext()) }
            }
            guard let response, let body = try? response.body.readAll() else { failures += 1; continue }
            let input = ScriptInput(phase: .response, request: ScriptRequest(method: "POST", rawURL: login.url.absoluteString),
                                    response: ScriptResponse(status: response.status, headers: response.headers,
                                                             body: String(decoding: body, as: UTF8.self)))
            empty += clock.measure { _ = ScriptEngine.run(ScriptSource(code: "", file: "bench.http", line: 1), input: input) }
            handler += clock.measure {
                let result = ScriptEngine.run(ScriptSource(code: typical, file: "bench.http", line: 1), input: input)
                if result.error != nil || result.tests.contains(where: { !$0.passed }) { failures += 1 }
            }
            postmanTest += clock.measure {
                let result = ScriptEngine.run(ScriptSource(code: postman, file: "bench.http", line: 1), input: input)
                if result.error != nil || result.tests.contains(where: { !$0.passed }) || result.globals["token"] == nil {
                    failures += 1
                }
            }
            process += clock.measure {
                let result = ScriptEngine.run(ScriptSource(code: promised, file: "bench.http", line: 1), input: input)
                if result.error != nil || result.tests.contains(where: { !$0.passed }) || result.globals["token"] == nil {
                    failures += 1
                }
            }
        }
        let count = Double(rounds)
        print("script: \(rounds) rounds of POST /auth/login on 127.0.0.1 (keep-alive), then its handler, interleaved"
              + (failures > 0 ? " (\(failures) failed)" : ""))
        print(String(format: "  request itself           %8.2f ms", request.milliseconds / count))
        print(String(format: "  empty script (context)   %8.2f ms   %.2f× the request", empty.milliseconds / count,
                     empty / request))
        print(String(format: "  typical handler          %8.2f ms   %.2f× the request", handler.milliseconds / count,
                     handler / request))
        print(String(format: "  Postman test (pm built)  %8.2f ms   %.2f× the request", postmanTest.milliseconds / count,
                     postmanTest / request))
        print(String(format: "  with a promise (process) %8.2f ms   %.2f× the request", process.milliseconds / count,
                     process / request))
    }
}

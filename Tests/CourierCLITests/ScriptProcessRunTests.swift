import CourierTestSupport
import Foundation
import Testing

/// Scripts that use promises, through `courier run`: their callbacks and `await` work as in the tools they come
/// from, in a process of their own that sees nothing of Courier's environment but the locale and time zone, and
/// that ends with the `courier` that started it.
@Suite("request scripts that use promises", .serialized)
struct ScriptProcessRunTests {
    @Test func aJetBrainsPromiseCallbackAndHttpyacTopLevelAwaitStillWork() async throws {
        // Given a JetBrains handler that sets the token in a promise's callback, and an httpyac pre-request
        // script that awaits twice at its top level
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            ### Log in
            # @name login
            POST BASE/login
            Content-Type: application/json

            {"user": "ada"}

            > {%
                Promise.resolve(response.body).then(function (body) {
                    client.global.set("token", body.token);
                    client.test("the callback ran", function () { client.assert(body.token === "t0k"); });
                });
            %}

            ###
            {{
              const first = await Promise.resolve("a");
              exports.awaited = [first, await Promise.resolve("b")].join("-");
            }}
            GET BASE/me?awaited={{awaited}}
            Authorization: Bearer {{token}}
            """, in: folder, server: server)
        // Then both ran to their end: the callback's test passed, and the next request carries what each set
        // (with promise jobs dropped, the callback never ran and the code after the first await never resumed)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✓ the callback ran"), "\(result.stdout)")
        let received = server.requests
        try #require(received.count == 2, "\(result.stdout)\(result.stderr)")
        #expect(received[1].target == "/me?awaited=a-b")
        #expect(received[1].header("Authorization") == "Bearer t0k")
    }

    @Test func aScriptProcessSeesOnlyTheLocaleAndEndsWithTheCourierThatStartedIt() async throws {
        // Given a handler that awaits for ever with a ten-minute limit, run with a secret in the environment
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @script-timeout 600
            GET \(server.base)/spin

            > {%
                (async function () { for (;;) await null; })();
            %}
            """)
        let courier = try CourierCLI.start(["run", "api.http"], in: folder.url,
                                           environment: ["API_TOKEN": "secret-7f3a", "TZ": "Europe/Paris"])
        defer { courier.signalGroup(SIGKILL) }
        // When its script process is running
        var script: pid_t?
        for _ in 0..<600 where script == nil {
            script = ProcessTree.scriptProcesses(under: courier.pid).first
            if script == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let pid = try #require(script, "no script process was started")
        // Then its environment holds the time zone and nothing of the secret
        let environment = ProcessTree.environment(pid)
        #expect(environment.contains("TZ=Europe/Paris"), "\(environment)")
        #expect(!environment.contains { $0.contains("secret-7f3a") || $0.hasPrefix("HOME=") || $0.hasPrefix("PATH=") },
                "\(environment)")
        // And when courier itself is killed, the script process ends too (before, nothing stopped it)
        kill(courier.pid, SIGKILL)
        var ended = false
        for _ in 0..<600 where !ended {
            ended = !ProcessTree.isRunning(pid)
            if !ended { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ended, "the script process outlived courier")
    }
}

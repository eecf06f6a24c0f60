import CourierTestSupport
import Foundation
import Testing

/// JetBrains' `import` / `run` lines and the REST Client's request variables, run through `courier run`
/// against a loopback server that keeps the bytes it received.
@Suite("Composed runs on the wire")
struct ComposedRunTests {
    /// Writes `files` (BASE replaced by the server's address) into a fresh folder and runs `arguments` there.
    private func run(_ files: [String: String], _ arguments: [String]) async throws
        -> (result: ChildResult, received: [CaptureServer.Received]) {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        for (path, text) in files { try folder.write(path, text.replacingOccurrences(of: "BASE", with: server.base)) }
        let result = try await CourierCLI.run(arguments, in: folder.url)
        return (result, server.requests)
    }

    @Test func runOfAnImportedRequestSendsItWithItsOwnVariablesAndTheOverridesOfTheRunLine() async throws {
        // Given: auth.http holds a login that uses its own file variables; api.http imports it
        let auth = """
            @user = ada
            @role = reader

            ### login
            POST BASE/login?user={{user}}&role={{role}}
            """
        let api = """
            import ./shared/auth.http

            ### as admin
            run #login (@role=admin)

            ### me
            GET BASE/me
            Authorization: Bearer {{login.response.body.$.token}}
            X-User: {{user}}
            """
        // When
        let (result, received) = try await run(["shared/auth.http": auth, "api.http": api], ["run", "api.http"])
        // Then: the login went out with the override, and its response and variables served the next request
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(received.count == 2, "\(result.stderr)")
        #expect(received[0].requestLine == "POST /login?user=ada&role=admin HTTP/1.1")
        #expect(received[1].path == "/me")
        #expect(received[1].header("Authorization") == "Bearer t0k")
        #expect(received[1].header("X-User") == "ada")
        #expect(result.stderr.contains("2 succeeded, 0 failed"), "\(result.stderr)")
    }

    @Test func runOfAFileSendsEveryRequestOfItInOrderAndARequestOfThisFileByName() async throws {
        let setup = "GET BASE/one\n\n###\nGET BASE/two?x={{x}}\n"
        let api = """
            ### prepare
            run ./setup.http (@x=7)

            ###
            # @name ping
            GET BASE/ping

            ### again
            run #ping
            """
        let (result, received) = try await run(["setup.http": setup, "api.http": api], ["run", "api.http"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(received.map(\.target) == ["/one", "/two?x=7", "/ping", "/ping"])
    }

    @Test func aFileRunningItselfIsACycleReportedAtItsLineAndNothingLoops() async throws {
        let api = """
            GET BASE/first

            ### loop
            run ./api.http
            """
        let (result, received) = try await run(["api.http": api], ["run", "api.http"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("api.http:4: run cycle"), "\(result.stdout)\(result.stderr)")
        // The cycle is found before the file runs again: the first request went out once.
        #expect(received.map(\.path) == ["/first"])
    }

    @Test func aRequestThatRunsTheBlockRunningItIsACycle() async throws {
        let api = """
            ### a
            run #b

            ### b
            run #a
            """
        let (result, received) = try await run(["api.http": api], ["run", "api.http", "--name", "a"])
        #expect(result.status == 3)
        #expect(received.isEmpty)
        #expect(result.stderr.contains("api.http:5: run cycle: 'run #a' runs 'a' again"), "\(result.stdout)")
    }

    @Test func aMissingImportIsAnErrorAtItsLineAndTheRestStillRuns() async throws {
        let api = """
            import ./gone.http
            import ./api.http

            GET BASE/still
            """
        let (result, received) = try await run(["api.http": api], ["run", "api.http"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("api.http:1: cannot import './gone.http': no such file"), "\(result.stderr)")
        #expect(result.stderr.contains("api.http:2: import cycle: './api.http' imports itself"), "\(result.stderr)")
        #expect(received.map(\.path) == ["/still"])
    }

    @Test func anUnknownRunTargetNamesTheCloseNames() async throws {
        let (result, received) = try await run(
            ["api.http": "# @name login\nGET BASE/login\n\n###\nrun #logn\n"], ["run", "api.http"])
        #expect(result.status == 3)
        #expect(received.count == 1)
        #expect(result.stderr.contains("api.http:5: no request is named 'logn'"), "\(result.stdout)")
        #expect(result.stderr.contains("did you mean 'login'?"), "\(result.stdout)")
    }

    @Test func requestVariablesReadTheRequestAsItWasSent() async throws {
        let api = """
            @who = ada
            # @name login
            POST BASE/login
            Content-Type: application/json
            X-Trace: trace-{{who}}

            {"user": "{{who}}", "n": 2}

            ###
            POST BASE/echo
            X-Seen-Trace: {{login.request.headers.x-trace}}
            X-Seen-User: {{login.request.body.$.user}}

            {{login.request.body.*}}
            """
        let (result, received) = try await run(["api.http": api], ["run", "api.http"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(received.count == 2)
        #expect(received[1].header("X-Seen-Trace") == "trace-ada")
        #expect(received[1].header("X-Seen-User") == "ada")
        #expect(received[1].bodyText == #"{"user": "ada", "n": 2}"#)
    }

    @Test func aRequestVariableOfARequestThatHasNotRunSaysSo() async throws {
        let api = "GET BASE/x?h={{login.request.headers.Host}}\n\n###\n# @name login\nGET BASE/login\n"
        let (result, received) = try await run(["api.http": api], ["run", "api.http"])
        #expect(result.status == 3)
        #expect(received.map(\.path) == ["/login"])
        #expect(result.stderr.contains("request 'login' has not run earlier in this run"), "\(result.stdout)")
    }

    @Test func checkReportsMissingImportsAndRunLinesThatNameNothingAndReadsImportedVariables() async throws {
        let folder = try TemporaryFolder()
        try folder.write("lib.http", "@host = http://127.0.0.1:1\n\n### login\nGET {{host}}/login\n")
        try folder.write("api.http", """
            import ./lib.http
            import ./nowhere.http

            GET {{host}}/me

            ###
            run #login

            ###
            run #logout
            run ./missing.http
            """)
        let result = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout.contains("api.http:2: cannot import './nowhere.http': no such file"), "\(result.stdout)")
        #expect(result.stdout.contains("api.http:7: run #login\n"), "\(result.stdout)")
        #expect(result.stdout.contains("api.http:10: no request is named 'logout'"), "\(result.stdout)")
        #expect(result.stdout.contains("api.http:11: cannot run './missing.http': no such file"), "\(result.stdout)")
        #expect(!result.stdout.contains("unknown variable"), "\(result.stdout)")
        #expect(result.stderr.contains("3 problems"), "\(result.stderr)")
    }
}

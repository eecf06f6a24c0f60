import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// Files written for kulala.nvim, run through `courier run` against a loopback server that keeps what it
/// received: `run #name` above a request, `headers['Name']` references, `$date`, `# @secret` and `@curl-` flags.
@Suite("kulala.nvim files on the wire")
struct KulalaRunTests {
    @Test func runLinesAboveARequestRunFirstAndItsReferencesReadTheirAnswer() async throws {
        // Given kulala's "run #Authenticate" above a request that reads the answer's header and today's date
        let server = try CaptureServer(issuing: "k")
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            ### Authenticate
            POST BASE/auth

            ### Request_one
            # @secret password Your password
            # @curl-connect-timeout 20
            run #Authenticate
            POST BASE/one
            Content-Type: application/json
            X-Type: {{Authenticate.response.headers['Content-Type']}}
            X-Date: {{$date}}
            X-Password: {{password}}

            {"a": 1}
            """, in: folder, server: server, arguments: ["--name", "Request_one", "--var", "password=s3cret"])
        // Then Authenticate went first, and the request carried what it read; the secret is masked in the echo
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/auth", "/one"])
        let one = try #require(server.requests.last)
        #expect(one.header("X-Type") == "application/json")
        #expect(one.header("X-Date")?.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "\(one.headerLines)")
        #expect(one.header("X-Password") == "s3cret")
        #expect(one.bodyText == #"{"a": 1}"#)
        #expect(!result.stdout.contains("s3cret"), "\(result.stdout)")
    }

    @Test func aCurlFlagCourierCannotHonourIsAnErrorAtItsLineAndNothingIsSent() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            # @curl-proxy http://127.0.0.1:9
            POST BASE/form

            a=b c

            ###
            GET BASE/fine
            """, in: folder, server: server)
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/fine"])
        #expect(result.stderr.contains("api.http:1: kulala's '# @curl-proxy' is not supported"), "\(result.stderr)")
    }

    @Test func luaScriptsAreClearErrorsAndTheRestRunsTheAsteriskFormTooWithTheSharedBlocksHeader() async throws {
        // Given a kulala shared block with a NOP placeholder, Lua scripts and an asterisk-form request
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            ### Shared
            @who = ada
            NOP
            X-Shared: yes

            ### lua before
            < {%
              -- lua
              request.variables.set("a", "1")
            %}
            GET BASE/lua

            ### lua file
            < ./pre.lua
            GET BASE/lua-file

            ### star
            OPTIONS * HTTP/1.1
            Host: BASE

            ### plain
            GET BASE/plain?who={{who}}
            """, in: folder, server: server)
        // Then the asterisk form and the plain request are sent, with the shared block's header, the latter with
        // its variable, and each refusal says why
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["*", "/plain?who=ada"])
        #expect(server.requests.first?.requestLine == "OPTIONS * HTTP/1.1")
        #expect(server.requests.first?.header("Host") == server.requests.last?.header("Host"))
        #expect(server.requests.map { $0.header("X-Shared") } == ["yes", "yes"])
        #expect(!result.stderr.contains("NOP"), "\(result.stderr)")
        #expect(result.stderr.contains("kulala.nvim's Lua scripts ('-- lua') are not supported"), "\(result.stderr)")
        #expect(result.stderr.contains("kulala.nvim's Lua scripts (./pre.lua) are not supported"), "\(result.stderr)")
    }

    @Test func aNamedResponsesCookiesAreReadByNameAndTheirValueStaysMasked() async throws {
        // Given a sign-in whose response sets a session cookie, and a request that reads it as kulala documents
        let demo = try DemoServer.start()
        defer { demo.stop() }
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let demoBase = demo.baseURL.absoluteString.hasSuffix("/") ? String(demo.baseURL.absoluteString.dropLast())
            : demo.baseURL.absoluteString
        let result = try await CompatibilityMatrixTests.run("""
            ### SignIn
            POST \(demoBase)/session/login
            Content-Type: application/json

            {"username": "ada", "password": "lovelace"}

            ###
            GET BASE/next?v={{SignIn.response.cookies.courier_session.value}}&p={{SignIn.response.cookies.courier_session.path}}&s={{SignIn.response.cookies.courier_session.secure}}
            """, in: folder, server: server,
            // A jar of its own: the session cookie must not go out with other tests' requests to 127.0.0.1.
            environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        // Then the server got the cookie's value and attributes, and the output shows the value masked
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.last?.target == "/next?v=demo-YWRh&p=%2F&s=FALSE", "\(server.requests.map(\.target))")
        #expect(!result.stdout.contains("demo-YWRh"), "\(result.stdout)")
    }

    @Test func kulalasSharedEnvironmentAndDefaultHeadersAreSentUnlessTheRequestSetsThem() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let environments = #"""
            {"$kulalaShared": {"$kulalaDefaultHeaders": {"Accept": "application/json", "X-Team": "core"},
                               "base": "BASE"},
             "dev": {"$kulalaDefaultHeaders": {"X-Env": "dev"}}}
            """#
        let result = try await CompatibilityMatrixTests.run("""
            GET {{base}}/one

            ###
            GET {{base}}/two
            Accept: text/plain
            """, in: folder, server: server, extra: ["http-client.env.json": environments],
            arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[0].header("Accept") == "application/json")
        #expect(received[0].header("X-Team") == "core")
        #expect(received[0].header("X-Env") == "dev")
        #expect(received[1].header("Accept") == "text/plain", "the request's own header wins")
    }

    @Test func cookieReferencesTheStdinCommandAndKulalasAssertHelpersAreErrorsAtTheirLine() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            ### login
            POST BASE/login

            > {%
              assert.same(response.body.token, "t0k");
            %}

            ###
            GET BASE/cookie?c={{login.response.cookies.session.value}}

            ###
            # @env-stdin-cmd TOKEN jq -r .token
            GET BASE/cmd
            """, in: folder, server: server)
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/login"])
        let output = result.stdout + result.stderr
        #expect(output.contains("api.http:5:") && output.contains("assert"), "\(output)")
        #expect(result.stderr.contains("api.http:9: '{{login.response.cookies.session.value}}'"), "\(result.stderr)")
        #expect(result.stderr.contains("api.http:12: kulala's '# @env-stdin-cmd' runs a command"), "\(result.stderr)")
    }
}

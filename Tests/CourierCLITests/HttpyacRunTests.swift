import CourierTestSupport
import Foundation
import Testing

/// Files written for httpyac, run through `courier run` against a loopback server that keeps what it
/// received: requests without a host, `{{ }}` scripts with `exports`, `??` tests anywhere after the request,
/// requests without `###`, `@ref`, `@import`, `@loop`, `$input` and httpyac's environments. The server answers
/// `{"token":"t0k"}`.
@Suite("httpyac files on the wire")
struct HttpyacRunTests {
    static func run(_ text: String, in folder: TemporaryFolder, server: CaptureServer, extra: [String: String] = [:],
                    arguments: [String] = ["--all"]) async throws -> ChildResult {
        try await CompatibilityMatrixTests.run(text, in: folder, server: server, extra: extra, arguments: arguments)
    }

    @Test func pathOnlyRequestLinesGoToTheHostVariableAndAFileWithoutOneSaysSoAtItsLine() async throws {
        // Given httpyac's `@host` and path-only request lines, and a second file with no host at all
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @host = BASE/
            ###
            POST /auth/login
            Content-Type: application/json

            {"user": "ada"}

            ###
            GET /users?page=2
            """, in: folder, server: server)
        // Then both reach the server at the host's paths
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.requestLine) == ["POST /auth/login HTTP/1.1", "GET /users?page=2 HTTP/1.1"])
        #expect(server.requests.first?.bodyText == #"{"user": "ada"}"#)

        try folder.write("nohost.http", "GET /a\n\n###\nGET \(server.base)/b\n")
        let missing = try await CourierCLI.run(["run", "nohost.http", "--all"], in: folder.url)
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("nohost.http:1: request 'GET /a': '/a' names no host: add a 'Host:' header, "
                                        + "or define 'host'"), "\(missing.stderr)")
        #expect(server.requests.last?.requestLine == "GET /b HTTP/1.1", "the other request still runs")
    }

    @Test func scriptBlocksExportVariablesBeforeAndAfterRequestsAndTestWithHttpyacsGlobals() async throws {
        // Given a file-wide script, a pre-request script, and a post-response script reading httpyac's response
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @base = BASE
            {{
              exports.prefix = "v" + 1;
              console.log("file-wide", base);
            }}
            ###
            # @name login
            {{
              exports.stamp = [prefix, "stamp"].join("-");
            }}
            POST {{base}}/login?stamp={{stamp}}
            Content-Type: application/json

            {"user": "ada"}

            {{
              const assert = require('assert');
              exports.token = response.parsedBody.token;
              test("status is 200", () => assert.strictEqual(response.statusCode, 200));
              test.status(200);
              test.header("content-type", "application/json");
              console.info("type", response.headers["content-type"], request.method);
            }}

            ###
            GET {{base}}/me
            Authorization: Bearer {{token}}
            X-Login: {{login.token}}

            {{
              test("fails", () => { throw new Error("boom " + httpFile.fileName.split("/").pop()); });
            }}
            """, in: folder, server: server)
        // Then what the scripts exported went on the wire, and their tests and logs are reported
        #expect(result.status == 1, "the last test fails: \(result.stdout)\(result.stderr)")
        let received = server.requests
        try #require(received.count == 2, "\(result.stdout)\(result.stderr)")
        #expect(received[0].target == "/login?stamp=v1-stamp")
        #expect(received[1].header("Authorization") == "Bearer t0k")
        #expect(received[1].header("X-Login") == "t0k", "httpyac reads a named response's field by the name")
        for line in ["log: file-wide \(server.base)", "log: type application/json POST", "✓ status is 200",
                     "✓ response status equals to 200", "✓ response header content-type equals application/json",
                     "✗ fails: boom api.http"] {
            #expect(result.stdout.contains(line), "\(line): \(result.stdout)")
        }
        #expect(result.stdout.components(separatedBy: "log: file-wide").count == 2, "the file-wide script runs once")
    }

    @Test func testLinesAfterAScriptOrRightUnderTheBodyRunAndRequestsWithoutSeparatorsAllRun() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            POST BASE/one
            Content-Type: application/json
            {"a": 1}
            ?? status == 200
            {{
              exports.seen = response.parsedBody.token;
            }}
            ?? js response.parsedBody.token == t0k
            GET BASE/two?seen={{seen}}
            ?? status == 200

            # @name third
            GET BASE/three
            """, in: folder, server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/one", "/two?seen=t0k", "/three"])
        #expect(server.requests.first?.bodyText == #"{"a": 1}"#)
        #expect(result.stdout.contains("### third"), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "✓ status == 200").count == 3, "\(result.stdout)")
        #expect(result.stdout.contains("✓ js response.parsedBody.token == t0k"), "\(result.stdout)")
    }

    @Test func aVariableNamingItselfTakesTheValueFromFurtherOut() async throws {
        // Given `@token = {{token}}` over an environment value and over a script's export
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @user = {{user}}
            ###
            # @name login
            POST BASE/login?user={{user}}

            {{
              exports.token = response.parsedBody.token;
            }}

            ###
            @token = {{token}}
            GET BASE/me
            Authorization: Bearer {{token}}
            """, in: folder, server: server, extra: ["http-client.env.json": #"{"dev": {"user": "ada"}}"#],
            arguments: ["--all", "--env", "dev"])
        // Then each resolves one scope out instead of failing as a cycle
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/login?user=ada", "/me"])
        #expect(server.requests.last?.header("Authorization") == "Bearer t0k")
    }

    @Test func refRunsTheNamedRequestFirstOnceAndForceRefEveryTime() async throws {
        // Given requests referring to `login` (one in an imported file), run by name
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let auth = "# @name login\nPOST BASE/login\n"
        let text = """
            # @import ./auth.http
            ###
            # @name me
            # @ref login
            GET BASE/me?token={{login.token}}

            ###
            # @name again
            # @ref login
            GET BASE/again

            ###
            # @name fresh
            # @forceRef login
            GET BASE/fresh

            ###
            # @name broken
            # @ref nobody
            GET BASE/never
            """
        let result = try await Self.run(text, in: folder, server: server, extra: ["auth.http": auth],
                                        arguments: ["--name", "me", "--name", "again", "--name", "fresh"])
        // Then login runs before me, not again for `again`, and again for `fresh`
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/login", "/me?token=t0k", "/again", "/login", "/fresh"])

        let broken = try await Self.run(text, in: folder, server: server, extra: ["auth.http": auth],
                                        arguments: ["--name", "broken"])
        #expect(broken.status == 3)
        #expect(broken.stderr.contains("api.http:19: '# @ref nobody' names no request"), "\(broken.stderr)")
        #expect(!server.requests.contains { $0.target == "/never" })
    }

    @Test func loopsSendTheRequestOncePerItemOrCountWithTheIndex() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            {{
              exports.items = ["a", "b c", 3];
            }}
            ###
            # @name each
            # @loop for item of items
            GET BASE/items/{{item}}?at={{$index}}

            ###
            # @loop for 2
            GET BASE/count/{{$index}}

            ###
            GET BASE/last?first={{each0.token}}
            """, in: folder, server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/items/a?at=0", "/items/b%20c?at=1", "/items/3?at=2", "/count/0",
                                                  "/count/1", "/last?first=t0k"])
    }

    @Test func inputValuesTakeTheirDefaultOrAnAnswerAndAPasswordIsMasked() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            @query = {{$input Search for? $value: swift}}
            @secret = {{$password Token?}}
            GET BASE/search?q={{query}}
            X-Token: {{secret}}

            ###
            GET BASE/pick/{{$pick Which app? $value: web,cli}}
            """
        let result = try await Self.run(text, in: folder, server: server,
                                        arguments: ["--all", "--var", "secret=hunter2"])
        // Then the default and the answer are sent, the password is masked, and an unanswered pick is an error
        #expect(result.status == 3)
        #expect(server.requests.first?.target == "/search?q=swift")
        #expect(server.requests.first?.header("X-Token") == "hunter2")
        #expect(server.requests.count == 1)
        #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"))
        #expect(result.stderr.contains("asks for 'Which app?' (Which app?; one of web, cli); pass --var"),
                "\(result.stderr)")
    }

    @Test func httpyacJSONEnvironmentsAndDotenvFilesProvideVariables() async throws {
        let server = try CaptureServer(issuing: "t")
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("GET {{base}}/env?who={{who}}&shared={{fromShared}}\nX-Key: {{apiKey}}\n",
                                        in: folder, server: server, extra: [
            ".httpyac.json": #"{"environments": {"$shared": {"fromShared": "s"}, "dev": {"base": "BASE", "who": "ada"}}}"#,
            ".env": "apiKey=k-123\nwho=nobody\n",
        ], arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.first?.target == "/env?who=ada&shared=s")
        #expect(server.requests.first?.header("X-Key") == "k-123")
        #expect(result.stdout.contains("X-Key: REDACTED") && !result.stdout.contains("k-123"),
                ".env values are secrets, masked in the echo: \(result.stdout)")
    }
}

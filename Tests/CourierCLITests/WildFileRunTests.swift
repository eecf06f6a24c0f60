import CourierTestSupport
import Foundation
import Testing

/// Shapes met in request files from public repositories that their own tools accept, run through
/// `courier run` and `courier check` against a loopback server that keeps what it received.
@Suite("Request files from the wild")
struct WildFileRunTests {
    @Test func anEnvironmentFileWithAJSONSchemaLinkRunsAndTheLinkIsNoEnvironment() async throws {
        // Given an environment file as kulala.nvim's environment manager writes it: a "$schema" link on top
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let environments = """
            {
              "$schema": "https://example.invalid/http-client.env.schema.json",
              "local": {"base": "BASE", "who": "ada"}
            }
            """
        // When a request reads the environment's variables
        let result = try await CompatibilityMatrixTests.run("GET {{base}}/users/{{who}}\n", in: folder, server: server,
                                                           extra: ["http-client.env.json": environments],
                                                           arguments: ["--env", "local"])
        // Then it is sent with them, and the link is not offered as an environment
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/users/ada"])
        let unknown = try await CourierCLI.run(["run", "api.http", "--env", "nope"], in: folder.url)
        #expect(!unknown.stderr.contains("$schema") && !unknown.stdout.contains("$schema"), "\(unknown.stderr)")
    }

    @Test func aTitleBoxedInHashesIsTheRequestsNameWithoutThem() async throws {
        // Given requests titled on boxed separator lines, one of them a name that ends in a hash of its own
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            ### Find one            ###
            GET BASE/one

            ###   Post in C# ###
            POST BASE/two
            """
        // When each is run by its name
        let one = try await CompatibilityMatrixTests.run(text, in: folder, server: server, arguments: ["--name", "Find one"])
        let two = try await CompatibilityMatrixTests.run(text, in: folder, server: server, arguments: ["--name", "Post in C#"])
        // Then the names are the titles without the box, and each request reached the server
        #expect(one.status == 0, "\(one.stdout)\(one.stderr)")
        #expect(two.status == 0, "\(two.stdout)\(two.stderr)")
        #expect(server.requests.map(\.target) == ["/one", "/two"])
    }

    @Test func checkNamesACredentialWrittenAsAReferenceInsteadOfMaskingIt() async throws {
        // Given an Authorization header whose whole credential is a dynamic variable that cannot be resolved
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            GET http://127.0.0.1:1/me
            Authorization: Bearer {{$auth.token("sign-in")}}

            ###
            GET http://127.0.0.1:1/other
            Authorization: Bearer literal-s3cret{{$nope}}
            """)
        // When the file is checked
        let result = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        // Then the message names the file, the line and the reference; a credential written in the file stays masked
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"api.http:2: bad dynamic variable '{{$auth.token("sign-in")}}'"#), "\(result.stdout)")
        #expect(!result.stdout.contains("literal-s3cret"), "\(result.stdout)")
    }

    @Test func anEnvironmentFileWithAByteOrderMarkAndCommentedOutLinesRuns() async throws {
        // Given an environment file saved with a byte order mark, a line commented out and a trailing comma
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let environments = "\u{FEFF}" + """
            {
              "dev": {
                // "base": "http://staging.invalid",
                "base": "BASE", /* the local server */
                "path": "a//b",
              }
            }
            """
        // When a request reads it
        let result = try await CompatibilityMatrixTests.run("GET {{base}}/{{path}}\n", in: folder, server: server,
                                                           extra: ["http-client.env.json": environments],
                                                           arguments: ["--env", "dev"])
        // Then the commented-out value is ignored and a string holding slashes is kept whole
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/a//b"])
    }

    @Test func aHeadingInsideABlockCommentNeitherEndsTheRequestAboveNorStartsOne() async throws {
        // Given httpyac block comments holding Markdown, `####` headings included, above and below a request
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            /*
            ## Sign in

            Read this before the request.
            #### Steps
            Send it, then keep the token.
            */
            @host = BASE
            POST /login
            Content-Type: application/json

            {"user": "ada"}

            {{
              exports.signedIn = true;
            }}
            /*
            #### Next: the profile
            It uses the token.
            */
            ###
            GET /me
            """
        let result = try await CompatibilityMatrixTests.run(text, in: folder, server: server)
        // Then both requests go out whole, and the file has no problem
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.requestLine) == ["POST /login HTTP/1.1", "GET /me HTTP/1.1"])
        #expect(server.requests.first?.bodyText == #"{"user": "ada"}"#)
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("api.http:1: POST /login") && check.stdout.contains("api.http:22: GET /me"),
                "\(check.stdout)")
    }

    @Test func testLinesCourierCannotReadStillLetTheRequestGoOutAndSayWhereTheyAre() async throws {
        // Given httpyac `??` lines without a condition, with a field httpyac has no value for, and a rule after
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            GET BASE/books/1

            ?? status 200

            ---

            ###
            GET BASE/health

            ?? body.status == ok
            """
        let result = try await CompatibilityMatrixTests.run(text, in: folder, server: server)
        // Then both requests reach the server, as httpyac sends them
        #expect(server.requests.map(\.requestLine) == ["GET /books/1 HTTP/1.1", "GET /health HTTP/1.1"])
        // And the line httpyac reads as a test fails as a test, the others are warnings at their lines
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("api.http:3: warning: '?? status 200' has no condition such as ==, <, includes or "
            + "exists; it is not a test"), "\(output)")
        #expect(output.contains("api.http:5: warning: text after the '??' tests is ignored"), "\(output)")
        #expect(output.contains("api.http:10: warning: '?? body.status' checks nothing Courier knows"), "\(output)")
        #expect(output.contains("✗ body.status == ok"), "\(output)")
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("api.http:1: GET") && check.stdout.contains("api.http:8: GET"), "\(check.stdout)")
    }

    @Test func aProblemInAnImportedFileNamesItsAbsolutePathWhenTheRunNamedTheFileSo() async throws {
        // Given a file imported by httpyac's `# @import` whose request names no host
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("pre.http", "# @name pre\nPOST /reset\n")
        try folder.write("main.http", "# @import ./pre.http\n# @ref pre\nGET \(server.base)/x\n")
        // When the importer is run by its absolute path
        let path = folder.url.appendingPathComponent("main.http").path
        let result = try await CourierCLI.run(["run", path, "--all"], in: folder.url)
        // Then the problem names the imported file by its absolute path, at its line
        let output = result.stdout + result.stderr
        #expect(output.contains("Error: \(folder.url.path)/pre.http:2: request 'pre': '/reset' names no host"),
                "\(output)")
    }

    @Test func aSetterWrittenInACommentIsNotTakenForTheScriptThatSetsTheVariable() async throws {
        // Given a handler whose only `client.global.set` is commented out, as converters leave them
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            # @name login
            POST BASE/login

            > {%
                // client.global.set("token", response.body.token);
                /* client.global.set("token", "x"); */
                client.log("see http://example.invalid/a//b");
            %}

            ###
            GET BASE/me
            Authorization: Token {{token}}
            """
        let result = try await CompatibilityMatrixTests.run(text, in: folder, server: server)
        // Then the request that needs it says the variable is unknown, at its line, and blames no script
        #expect(server.requests.map(\.target) == ["/login"])
        let output = result.stdout + result.stderr
        #expect(output.contains("api.http:12: unknown variable 'token'"), "\(output)")
        #expect(!output.contains("is set by"), "\(output)")
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.stdout.contains("api.http:12: unknown variable 'token'"), "\(check.stdout)")
    }

    @Test func aProjectWithoutGitRunFromTheRequestFilesFolderFindsHttpyacsConfigurationAtItsRoot() async throws {
        // Given httpyac's `.httpyac.json` at a project's root (no `.git`) and a request file three folders down
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write(".httpyac.json", """
            {"environments": {"$default": {"host": "\(server.base)/api"}}}
            """)
        try folder.write("src/users/http/users.http", "### list\nGET /users\n")
        // When it is run from its own folder
        let result = try await CourierCLI.run(["run", "users.http", "--all"],
                                              in: folder.url.appendingPathComponent("src/users/http"))
        // Then the host comes from the root's configuration, as httpyac finds it
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/api/users"])
    }

    @Test func withoutEnvTheOnlyEnvironmentTheFilesDefineIsUsedAndSaidSo() async throws {
        // Given JetBrains environment files that define one environment, its secret in the private file, and
        // the project's `.env.example` template beside them
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let files = ["http-client.env.json": #"{"dev": {"base": "BASE"}}"#,
                     "http-client.private.env.json": #"{"dev": {"token": "s3cr3t"}}"#,
                     ".env.example": "APP_KEY=\n"]
        // When the file is run and checked without --env
        let result = try await CompatibilityMatrixTests.run("GET {{base}}/me\nAuthorization: Bearer {{token}}\n",
                                                           in: folder, server: server, extra: files)
        // Then that environment is used, and standard error says which
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.first?.target == "/me")
        #expect(server.requests.first?.header("Authorization") == "Bearer s3cr3t")
        #expect(result.stderr.contains("note: no --env given; using 'dev', the only environment"), "\(result.stderr)")
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // And with a second environment that points elsewhere, or httpyac's $default, none is picked for the user
        try folder.write("http-client.env.json", #"{"dev": {"base": "https://dev.example.invalid"}, "prod": {}}"#)
        let two = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(two.status == 3 && two.stderr.contains("none selected (--env NAME)"), "\(two.stderr)")
        try folder.write("http-client.env.json", #"{"dev": {"base": "http://127.0.0.1:1"}}"#)
        try folder.write(".httpyac.json", #"{"environments": {"$default": {"base": "\#(server.base)/d"}}}"#)
        try folder.write("plain.http", "GET {{base}}/x\n")
        let httpyac = try await CourierCLI.run(["run", "plain.http"], in: folder.url)
        #expect(!httpyac.stderr.contains("note: no --env"), "\(httpyac.stderr)")
        #expect(server.requests.last?.target == "/d/x", "\(httpyac.stdout)\(httpyac.stderr)")
    }

    @Test func aVariableNamedLikeItsOwnRequestIsAnUnknownVariableNotARequestToRunFirst() async throws {
        // Given a request named token that sends {{token}}, which nothing defines
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        // When it runs
        let result = try await CompatibilityMatrixTests.run("# @name token\nGET BASE/me\nAuthorization: Bearer {{token}}\n",
                                                           in: folder, server: server)
        // Then nothing is sent, and the error says the variable is undefined and how to define it
        #expect(result.status != 0)
        #expect(server.requests.isEmpty)
        #expect(result.stderr.contains("unknown variable 'token' in request 'token'; define it with '@token = value', "
            + "pass --var token=VALUE"), "\(result.stderr)")
        #expect(!result.stderr.contains("has not run earlier"), "\(result.stderr)")
    }

    @Test func aJetBrainsRandomIntegerWithOneArgumentIsFromZeroUpToIt() async throws {
        // Given requests writing $random.integer with only an upper bound, as files in the wild do
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = (1...5).map { _ in "###\nGET BASE/n?max={{$random.integer(3)}}\n" }.joined(separator: "\n")
        // When they run
        let result = try await CompatibilityMatrixTests.run(text, in: folder, server: server)
        // Then each was sent with a number from 0 up to, not including, the bound
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let values = server.requests.map(\.target)
        #expect(values.count == 5 && values.allSatisfy { ["/n?max=0", "/n?max=1", "/n?max=2"].contains($0) }, "\(values)")
        // And a bound of 0 or below is an error naming the variable
        let zero = try await CompatibilityMatrixTests.run("GET BASE/n?max={{$random.integer(0)}}\n", in: folder, server: server)
        #expect(zero.status != 0 && zero.stderr.contains("$random.integer(0)"), "\(zero.stderr)")
    }
}

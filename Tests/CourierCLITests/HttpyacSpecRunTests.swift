import CourierTestSupport
import Foundation
import Testing

/// Rules of httpyac's documentation and test suite that request files lean on, through `courier run` against
/// a loopback server answering each request with its query as JSON: header spreads, `@global.` definitions,
/// Node's crypto and the sandbox's libraries in scripts, conditions of `# @disabled`, a loop's list of
/// responses, a token body under the request line, and `??` lines reading into the body.
@Suite("httpyac's documented rules on the wire")
struct HttpyacSpecRunTests {
    static func run(_ files: [String: String], server: LoopbackServer, target: String = "api.http",
                    arguments: [String] = ["--all"]) async throws -> ChildResult {
        let folder = try TemporaryFolder()
        for (path, text) in files {
            try folder.write(path, text.replacingOccurrences(of: "BASE", with: server.baseURL.absoluteString))
        }
        return try await CourierCLI.run(["run", target] + arguments, in: folder.url)
    }

    @Test func aHeaderSpreadSendsTheEntriesOfTheObjectAScriptExported() async throws {
        // Given httpyac's `...defaultHeaders` line among a request's headers, the object from a file-wide script
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            @host = BASE
            {{+
              exports.defaultHeaders = { "X-Team": "core", "Accept": "application/json", "X-Ids": [1, 2] };
            }}
            ###
            GET /spread
            Accept: text/plain
            ...defaultHeaders
            X-Own: mine
            """], server: server)
        // Then its entries are sent as headers (over the one written), beside the request's own
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let headers = try #require(server.requests.first?.headers)
        #expect(headers["x-team"] == "core")
        #expect(headers["accept"] == "application/json")
        #expect(headers["x-ids"] == "1, 2" || headers["x-ids"] == "1,2" || headers["x-ids"] == "2")
        #expect(headers["x-own"] == "mine")
    }

    @Test func aSpreadOfSomethingNotAnObjectIsAnErrorAndNothingIsSent() async throws {
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            @plain = text
            GET BASE/spread
            ...plain
            """], server: server)
        #expect(result.status != 0)
        #expect(result.stdout.contains("...plain") || result.stderr.contains("...plain"), "\(result.stdout)\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func aGlobalDefinitionIsReadAsDollarGlobalHereAndInTheFilesRunAfter() async throws {
        // Given `@global.name = value` before a request line, and one after a request line from its response
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run([
            "a.http": """
                @host = BASE
                @global.team = core
                GET /first?team={{$global.team}}

                @global.count = {{response.parsedBody.n}}
                """,
            "b.http": """
                GET BASE/second?team={{$global.team}}&count={{$global.count}}
                """,
        ], server: server, target: ".")
        // Then this request and the next file's read them
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == ["team=core", "team=core&count=1"])
    }

    @Test func scriptsRequireNodesCryptoAndTheSandboxsLibraries() async throws {
        // Given a pre-request script signing the request with Node's crypto, and lodash and uuid
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            {{
              const crypto = require('crypto');
              const signature = crypto.createHmac('sha256', 'secret')
                .update(`${request.method}_${request.headers.key}`).digest('base64');
              exports.authentication = `Basic ${signature}`;
              exports.digest = require('node:crypto').createHash('sha1').update('abc').digest('hex');
              exports.upper = require('lodash').toUpper('abc');
              exports.id = require('uuid').v4();
            }}
            GET BASE/signed?digest={{digest}}&upper={{upper}}&id={{id}}
            Authorization: {{authentication}}
            key: test
            """], server: server)
        // Then the server gets the signature Node computes, the digest, lodash's answer and a UUID
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.headers["authorization"] == "Basic 8hiIYW+ERaH03JKCDl62xluD3Rp7yzfpTPxKmwEYZ9U=")
        #expect(request.query.hasPrefix("digest=a9993e364706816aba3e25717850c26c9cd0d89d&upper=ABC&id="))
        #expect(request.query.count == "digest=a9993e364706816aba3e25717850c26c9cd0d89d&upper=ABC&id=".count + 36)
    }

    @Test func aDisabledConditionReadsLiteralVariablesAndWhatTheFilesScriptsExport() async throws {
        // Given httpyac's documented `@callRequest = {{false}}` and a condition on a file script's export
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            @callRequest = {{false}}
            {{
              exports.mode = "offline";
            }}
            ###
            # @disabled !callRequest
            GET BASE/skipped-by-literal
            ###
            # @disabled mode === "offline"
            GET BASE/skipped-by-export
            ###
            # @disabled mode === "online"
            GET BASE/sent
            """], server: server)
        // Then the first two are skipped and the last is sent
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/sent"])
        #expect(result.stdout.contains("skipped: disabled (# @disabled !callRequest)"), "\(result.stdout)")
    }

    @Test func aDisabledConditionThatThrowsIsReportedAtItsLine() async throws {
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            # @disabled nothingDefinesThis === 1
            GET BASE/never
            """], server: server)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("api.http:1: ReferenceError"), "\(result.stdout)\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func aLoopNamesTheListOfItsResponsesForTheRequestsAfterIt() async throws {
        // Given a named loop and a request looping over its responses, as httpyac's suite writes it
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            @host = BASE
            # @name page
            # @loop for 2
            GET /page?index={{$index}}
            ###
            # @loop for item of pageList
            GET /item?status={{item.statusCode}}&index={{item.parsedBody.query.index}}
            """], server: server)
        // Then the second loop reads each response of the first
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == ["index=0", "index=1", "status=200&index=0", "status=200&index=1"])
    }

    @Test func aTokenRightUnderTheRequestLineIsTheBody() async throws {
        // Given httpyac's `# @jwt` example: a token written under the request line, no blank line
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            # @jwt data
            POST BASE/token
            eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln
            """], server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln")
    }

    @Test func anExportedObjectHasTheVariablesInItsValuesSubstituted() async throws {
        // Given httpyac's nested replacement: an exported object whose value names a variable
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            @baz = works
            {{
              exports.payload = { bar: '{{baz}}', kept: '{{nothing_defines_this}}' };
            }}
            POST BASE/nested
            Content-Type: application/json

            {{payload}}
            """], server: server)
        // Then the variable is substituted; text that names nothing is kept as written
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let body = server.requests.first.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(body == #"{"bar":"works","kept":"{{nothing_defines_this}}"}"#)
    }

    @Test func assertionsReadIntoTheBodyCompareObjectsAndSubstituteTheExpectedValue() async throws {
        // Given `??` lines as httpyac's guide and suite write them
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            @expected = bar
            GET BASE/check?foo=bar

            ?? body query.foo == bar
            ?? body query.foo == {{expected}}
            ?? body query.foo == {{"b" + "ar"}}
            ?? js response.parsedBody.query == {"foo": "bar"}
            ?? body query.foo == baz
            """, ], server: server, arguments: ["--all", "--json"])
        // Then each passes but the last, which fails naming what it found
        #expect(result.status != 0)
        let line = try #require(result.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.map { $0["passed"] as? Bool } == [true, true, true, true, false], "\(tests)")
        #expect((tests.last?["message"] as? String)?.contains("bar") == true)
    }

    @Test func aGqlLineSendsTheImportedDocumentWithItsOperationNameAndVariables() async throws {
        // Given httpyac's GraphQL import: the document in a file beside the request, its variables after it
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run([
            "queries/launches.gql": "query launches($limit: Int) {\n  launches(limit: $limit) { {{field}} }\n}\n",
            "api.http": """
                @field = id
                @folder = queries
                POST BASE/graphql
                Content-Type: application/json

                gql launches < ./{{folder}}/launches.gql

                {"limit": 10}
                """,
        ], server: server)
        // Then the server gets the query (its variable substituted), the operation name and the variables
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let body = try #require(server.requests.first?.body)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object["query"] as? String == "query launches($limit: Int) {\n  launches(limit: $limit) { id }\n}")
        #expect(object["operationName"] as? String == "launches")
        #expect(object["variables"] as? [String: Int] == ["limit": 10])
    }

    @Test func theConfigurationsDefaultHeadersGoWithEveryRequestThatDoesNotSetThem() async throws {
        // Given `.httpyac.json` with environments and default headers using a variable
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run([
            ".httpyac.json": """
                {"environments": {"$shared": {"team": "core"}, "dev": {"host": "BASE"}},
                 "defaultHeaders": {"Authorization": "Bearer {{token}}", "X-Team": "{{team}}"}}
                """,
            "api.http": """
                @token = t0k
                GET /first
                ###
                GET /second
                X-Team: own
                """,
        ], server: server, arguments: ["--all", "--env", "dev"])
        // Then both requests carry them, and a request's own header wins
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map { $0.headers["authorization"] } == ["Bearer t0k", "Bearer t0k"])
        #expect(server.requests.map { $0.headers["x-team"] } == ["core", "own"])
    }

    @Test func packageJSONsHttpyacObjectIsReadAsTheConfiguration() async throws {
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run([
            "package.json": """
                {"name": "api", "httpyac": {"environments": {"dev": {"host": "BASE"}}, "defaultHeaders": {"X-From": "package"}}}
                """,
            "api.http": "GET /from-package\n",
        ], server: server, arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/from-package"])
        #expect(server.requests.first?.headers["x-from"] == "package")
    }

    @Test func theRootsEnvFolderHoldsJetBrainsEnvironmentFilesToo() async throws {
        // Given httpyac's `env` folder in the project root with a JetBrains environment file and a .env file
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run([
            "env/http-client.env.json": #"{"dev": {"host": "BASE", "who": "jetbrains"}}"#,
            "env/dev.env": "token=from-dotenv\n",
            "requests/api.http": "GET /env?who={{who}}&token={{token}}\n",
        ], server: server, target: "requests/api.http", arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == ["who=jetbrains&token=from-dotenv"])
    }

    @Test func aWhileLoopRunsForAsLongAsItsConditionOverExportsHolds() async throws {
        // Given a paging loop: a script after the request exports the next page, or null after the third
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            {{
              exports.next = 1;
            }}
            ###
            # @name page
            # @loop while next
            GET BASE/page?page={{next}}&pass={{$index}}

            {{
              const page = Number(response.parsedBody.query.page);
              exports.next = page < 3 ? page + 1 : null;
            }}
            """], server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == ["page=1&pass=0", "page=2&pass=1", "page=3&pass=2"])
    }

    @Test func aWhileLoopWhoseRequestChangesItsConditionInsideBracesIsRefused() async throws {
        // Given httpyac's documented form, which counts up inside the URL's braces
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            {{
              exports.expression = { index: 0 };
            }}
            ###
            # @loop while expression.index < 3
            GET BASE/anything?item={{expression.index++}}
            """], server: server)
        // Then nothing is sent and the loop's line says why
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("api.http:5: '# @loop while': the request changes a value"),
                "\(result.stdout)\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func xpathVariablesReadANamedResponseOrTheLastOne() async throws {
        // Given a server answering XML, and httpyac's `{{$xpath:NAME EXPRESSION}}` and `{{$xpath EXPRESSION}}`
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Content-Type", "application/xml")],
                                 body: Data(#"<shelf><book author="ada">Notes</book></shelf>"#.utf8))
        }
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            ### books
            GET BASE/books

            ###
            # @ref books
            GET BASE/author?named={{$xpath:books //book/@author}}&last={{$xpath //book}}
            """], server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == ["", "named=ada&last=Notes"])
    }

    @Test func aJavaScriptValueKeepsToTheRequestsScriptTimeout() async throws {
        // Given an expression that never returns, under a request's own `# @script-timeout`
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let result = try await Self.run(["api.http": """
            # @script-timeout 0.2
            GET BASE/never?x={{(()=>{for(;;);})()}}
            """], server: server)
        // Then it is stopped at that limit, not the default one, and nothing is sent
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("time limit of 0.2 s"), "\(result.stdout)\(result.stderr)")
        #expect(server.requests.isEmpty)
    }
}

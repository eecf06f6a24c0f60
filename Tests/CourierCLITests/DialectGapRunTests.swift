import CourierTestSupport
import Foundation
import Testing

/// Rules of httpyac, the REST Client and kulala.nvim that files lean on and Courier read otherwise before:
/// each file runs through `courier run` against a loopback server that keeps what it received.
@Suite("Dialect rules on the wire, second pass")
struct DialectGapRunTests {
    @Test func httpyacJoinsPathAndQueryLinesToTheURLAndTakesWordsAfterTheHeadersAsTheBody() async throws {
        // Given a URL continued on unindented `/path`, `?` and `&` lines, and a text body right under a header
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE
            /items/7
            ?view=full
            &lang=en

            ###
            POST BASE/notes
            Content-Type: text/plain
            remember the milk
            and the eggs
            """, in: folder, server: server)
        // Then the URL is the joined one and the two lines of words are the body
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(server.requests.count == 2)
        #expect(server.requests[0].target == "/items/7?view=full&lang=en")
        #expect(server.requests[1].bodyText == "remember the milk\nand the eggs")
        #expect(server.requests[1].header("Content-Type") == "text/plain")
    }

    @Test func wordsWithoutAColonRightUnderTheRequestLineStayAnErrorAtTheirLine() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            POST BASE/typo
            Content Type application/json

            {}
            """, in: folder, server: server)
        #expect(result.status != 0)
        #expect(result.stderr.contains("api.http:2: expected a header"), "\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func restClientFormBodiesAreJoinedAndPercentEncodedAsItsAutomaticStrategyDoes() async throws {
        // Given a form written over `&` lines with spaces, a plus, a lone percent sign and an escape
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            @city = New York
            POST BASE/form
            Content-Type: application/x-www-form-urlencoded

            name=Ada Lovelace
            &city={{city}}&sum=a+b
            &share=50%
            &done=%41
            """, in: folder, server: server)
        // Then the server receives one line, what a form may not hold raw encoded, escapes kept
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.first?.bodyText == "name=Ada%20Lovelace&city=New%20York&sum=a+b&share=50%25&done=%41")
    }

    @Test func aNamedGraphQLOperationIsSentWithItsOperationName() async throws {
        // Given the REST Client's GraphQL request with a named query, and an anonymous one
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            POST BASE/graphql
            X-REQUEST-TYPE: GraphQL
            Content-Type: application/json

            # the user by id
            query GetUser($id: ID!) {
              user(id: $id) { name }
            }

            { "id": "1" }

            ###
            GRAPHQL BASE/graphql

            { viewer { login } }
            """, in: folder, server: server)
        // Then the named one carries operationName, the anonymous one none
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(server.requests.count == 2)
        let named = try #require(try JSONSerialization.jsonObject(with: server.requests[0].body) as? [String: Any])
        #expect(named["operationName"] as? String == "GetUser")
        #expect((named["variables"] as? [String: String]) == ["id": "1"])
        #expect(server.requests[1].bodyText == #"{"query":"{ viewer { login } }"}"#)
    }

    @Test func httpyacReadsMembersOfAVariableAsJavaScript() async throws {
        // Given `{{str.length}}` and `{{str[0]}}` on a plain text variable, and a field of a JSON one
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            @word = hello
            @user = {"name": "ada"}
            GET BASE/members?len={{word.length}}&first={{word[0]}}&upper={{word.toUpperCase()}}&name={{user.name}}
            """, in: folder, server: server)
        // Then the server receives what JavaScript makes of them
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.first?.target == "/members?len=5&first=h&upper=HELLO&name=ada")
    }

    @Test func aMemberOfAVariableNothingDefinesIsStillAnUnknownVariable() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("GET BASE/x?n={{missing.length}}\n", in: folder, server: server)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("unknown variable 'missing.length'"), "\(result.stdout)\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func kulalasSharedEachRequestRunsBeforeEachRequestAndSharedBeforeOneRunAlone() async throws {
        // Given a file whose first block is `### Shared each`
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let each = """
            ### Shared each
            GET BASE/shared

            ### one
            GET BASE/one

            ### two
            GET BASE/two
            """
        let all = try await CompatibilityMatrixTests.run(each, in: folder, server: server)
        // Then a run of the file sends it before each request, and so does a run of one request
        #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
        #expect(server.requests.map(\.target) == ["/shared", "/one", "/shared", "/two"])
        let alone = try await CompatibilityMatrixTests.run(each, in: folder, server: server, arguments: ["--name", "two"])
        #expect(alone.status == 0, "\(alone.stdout)\(alone.stderr)")
        #expect(server.requests.map(\.target).suffix(2) == ["/shared", "/two"])
        // And a `### Shared` request runs once in a run of the file, and before a request run alone
        let once = each.replacingOccurrences(of: "### Shared each", with: "### Shared")
        let before = server.requests.count
        _ = try await CompatibilityMatrixTests.run(once, in: folder, server: server)
        #expect(server.requests.dropFirst(before).map(\.target) == ["/shared", "/one", "/two"])
        let picked = server.requests.count
        _ = try await CompatibilityMatrixTests.run(once, in: folder, server: server, arguments: ["--name", "two"])
        #expect(server.requests.dropFirst(picked).map(\.target) == ["/shared", "/two"])
    }

    @Test func kulalasGraphQLTagMakesAnyBodyAQueryAndItsJQFilterChangesNothingSent() async throws {
        // Given `# @graphql` over an anonymous query, and `# @jq` (a filter of what kulala shows) on another
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            # @graphql
            POST BASE/graphql
            Content-Type: application/json

            { viewer { id } }

            ###
            # @jq { "id": .id }
            POST BASE/plain
            Content-Type: application/json

            {"id": 1}
            """, in: folder, server: server)
        // Then the first goes as a GraphQL query, the second exactly as written
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(server.requests.count == 2)
        #expect(server.requests[0].bodyText == #"{"query":"{ viewer { id } }"}"#)
        #expect(server.requests[1].bodyText == #"{"id": 1}"#)
    }

    @Test func httpyacsScriptAPISetsVariablesAndRefusesToRunRequestsFromAScript() async throws {
        // Given a script setting a variable through $httpyac, and one asking it to run another request
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            {{
              $httpyac.setVariables({ team: "core" });
            }}
            GET BASE/first?team={{team}}

            ###
            {{
              await $httpyac.execute("first");
            }}
            GET BASE/second
            """, in: folder, server: server)
        // Then the first is sent with the value, the second not, its error saying what to write instead
        #expect(server.requests.map(\.target) == ["/first?team=core"])
        #expect((result.stdout + result.stderr).contains("$httpyac.execute (name the request with # @ref NAME) is not supported"),
                "\(result.stdout)\(result.stderr)")
    }

    @Test func kulalasDocumentedCurlFlagsSendAFormAndRetryAndTheBoundsOfRandomIntComeInEitherOrder() async throws {
        // Given `@curl-data-urlencode` over a body without a Content-Type, the documentation's `@curl-non-buffer`
        // spelling, and httpyac's `$randomInt` with its bounds reversed
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            # @curl-data-urlencode
            # @curl-non-buffer
            # @curl-retry 2
            POST BASE/form

            scope=read write&grant_type=client_credentials

            ###
            GET BASE/pick?n={{$randomInt 9 8}}
            """, in: folder, server: server)
        // Then the body goes as an encoded form, and the number is the one the range holds
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(server.requests.count == 2)
        #expect(server.requests[0].header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(server.requests[0].bodyText == "scope=read%20write&grant_type=client_credentials")
        #expect(server.requests[1].target == "/pick?n=8")
    }
}

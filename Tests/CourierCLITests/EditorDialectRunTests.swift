import CourierTestSupport
import Foundation
import Testing

/// Rules of the JetBrains HTTP Client's grammar, the VS Code REST Client's README and kulala.nvim's docs that
/// files written for those editors rely on, run through `courier run` and checked against what a loopback
/// server received.
@Suite("Editor dialect rules on the wire")
struct EditorDialectRunTests {
    @Test func anIndentedLineUnderAHeaderContinuesItsValueAsTheJetBrainsGrammarSays() async throws {
        // Given a header whose value goes on over two indented lines, then another header
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE/folded
            X-Long: first
                second
            \tthird
            X-Next: n
            """, in: folder, server: server)
        // Then the value went out on one line, its pieces joined by one space, and the next header is its own
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.header("X-Long") == "first second third", "\(request.headerLines)")
        #expect(request.header("X-Next") == "n")
    }

    @Test func aPercentNameSendsTheVariableEncodedAsAURIComponentOnceInPathAndQuery() async throws {
        // Given the REST Client's `{{%name}}` in the path and the query, beside a plain `{{name}}`
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            @name = Strunk & White/é
            GET BASE/authors/{{%name}}?q={{%name}}&plain={{name}}
            X-Encoded: {{%name}}
            """, in: folder, server: server)
        // Then the encoded value went out as encodeURIComponent gives it, never encoded a second time
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.path == "/authors/Strunk%20%26%20White%2F%C3%A9", "\(request.target)")
        #expect(request.query == "q=Strunk%20%26%20White%2F%C3%A9&plain=Strunk%20%26%20White%2F%C3%A9")
        #expect(request.header("X-Encoded") == "Strunk%20%26%20White%2F%C3%A9")
    }

    @Test func aNewlineDelimitedJSONBodyEndsWithALineBreakAsBulkAPIsRequire() async throws {
        // Given an Elasticsearch-style bulk body, its last line without a line break in the file
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            POST BASE/_bulk
            Content-Type: application/x-ndjson

            {"index": {"_id": "1"}}
            {"field": "value"}

            ###
            POST BASE/json
            Content-Type: application/json

            {"a": 1}
            """, in: folder, server: server)
        // Then the NDJSON body ends with one line break; a JSON body is sent as written
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.bodyText) == ["{\"index\": {\"_id\": \"1\"}}\n{\"field\": \"value\"}\n",
                                                   "{\"a\": 1}"])
    }

    @Test func anAzureADTokenVariableIsAClearErrorAtItsLineAndNothingIsSent() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE/fine

            ###
            GET BASE/azure
            Authorization: {{$aadV2Token appOnly}}
            """, in: folder, server: server)
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/fine"])
        #expect(result.stderr.contains("api.http:5:"), "\(result.stderr)")
        #expect(result.stderr.contains("'$aadV2Token' signs in to Azure AD"), "\(result.stderr)")
        #expect(result.stderr.contains("--var token="), "\(result.stderr)")
    }

    @Test func kulalasHeaderIndexPicksOneOfARepeatedHeadersValuesCountingFromOne() async throws {
        // Given a request sending X-Tag twice, and one reading its values by kulala's `[N]`
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            ### one
            GET BASE/one
            X-Tag: first
            X-Tag: second

            ### two
            GET BASE/two
            X-1: {{one.request.headers.X-Tag[1]}}
            X-2: {{one.request.headers['X-Tag'][2]}}
            X-Plain: {{one.request.headers.X-Tag}}

            ### three
            GET BASE/three
            X-3: {{one.request.headers.X-Tag[3]}}
            """, in: folder, server: server)
        // Then the positions named the values in order; one past the last is an error at its line
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/one", "/two"])
        let two = try #require(server.requests.last)
        #expect(two.header("X-1") == "first")
        #expect(two.header("X-2") == "second")
        #expect(two.header("X-Plain") == "first")
        #expect(result.stderr.contains("api.http:14:"), "\(result.stderr)")
        #expect(result.stderr.contains("kulala counts them from 1, so [3] names none"), "\(result.stderr)")
    }
    @Test func projectRootIsTheFolderHoldingDotIdeaAboveTheFileAndABodyReadsFromIt() async throws {
        // Given a JetBrains project (.idea at its root) with the request file in a subfolder
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write(".idea/workspace.xml", "<project/>")
        try folder.write("data/body.json", #"{"from": "root"}"#)
        try folder.write("requests/api.http", """
            POST \(server.base)/root
            Content-Type: application/json
            X-History: {{$historyFolder}}

            < {{$projectRoot}}/data/body.json
            """)
        // When it runs, allowed to read the project
        let result = try await CourierCLI.run(["run", "requests/api.http", "--allow-read", folder.url.path],
                                              in: folder.url)
        // Then the body came from the project's root and the history folder is under .idea
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.bodyText == #"{"from": "root"}"#)
        let root = folder.url.standardizedFileURL.path
        #expect(request.header("X-History") == root + "/.idea/httpRequests", "\(request.headerLines)")
    }
    @Test func jetBrainsFakerNamesWithAPostmanCounterpartSendAValueOfTheirShape() async throws {
        // Given Datafaker names as JetBrains writes them, and one Courier has no counterpart for
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            POST BASE/people
            Content-Type: application/json

            {"first": "{{$random.name.firstName}}", "email": "{{$random.internet.emailAddress}}",
             "ip": "{{$random.internet.ipV4Address}}", "city": "{{$random.address.city}}"}

            ###
            GET BASE/beer?b={{$random.beer.name}}
            """, in: folder, server: server)
        // Then the first went out with values of the right shape; the other is an error listing the known names
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/people"])
        let body = try #require(server.requests.first?.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        #expect(json["first"]?.isEmpty == false && json["first"]?.contains("{{") == false, "\(json)")
        #expect(json["email"]?.wholeMatch(of: /[a-z.\-]+\d\d@example\.(com|net|org)/) != nil, "\(json)")
        #expect(json["ip"]?.split(separator: ".").count == 4, "\(json)")
        #expect(json["city"]?.isEmpty == false, "\(json)")
        #expect(result.stderr.contains("api.http:8:"), "\(result.stderr)")
        #expect(result.stderr.contains("$random.name.firstName"), "\(result.stderr)")
    }
    @Test func kulalasEnvKeyTagsSetVariablesFromTheResponseForTheRequestsAfterIt() async throws {
        // Given kulala's env-json-key and env-header-key (and a delay) on a login, a malformed one below
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            # @env-json-key TOKEN token
            # @env-header-key TYPE Content-Type
            # @delay 10
            POST BASE/login

            ###
            GET BASE/me
            Authorization: Bearer {{TOKEN}}
            X-Type: {{TYPE}}

            ###
            # @env-json-key ONLY_A_NAME
            GET BASE/bad
            """, in: folder, server: server)
        // Then the next request read both from the login's response; the malformed tag is an error at its line
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/login", "/me"])
        let me = try #require(server.requests.last)
        #expect(me.header("Authorization") == "Bearer t0k", "\(me.headerLines)")
        #expect(me.header("X-Type") == "application/json", "\(me.headerLines)")
        #expect(result.stderr.contains("api.http:12: kulala's '# @env-json-key' needs a variable name"),
                "\(result.stderr)")
    }
    @Test func kulalasSharedBlockLendsItsTagsAndANOPBlockItsHeadersAndScriptsToEveryRequest() async throws {
        // Given a NOP shared block with a tag, a header and a handler, two requests (one setting the header
        // itself), and a NOP that is not in the first block
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            ### Shared
            # @note shared
            NOP
            X-Team: core
            Accept: application/json

            > {% client.global.set("count", String(Number(client.global.get("count") || 0) + 1)); %}

            ### one
            GET BASE/one
            Accept: text/plain

            ### two
            GET BASE/two?count={{count}}

            ### three
            GET BASE/three?count={{count}}

            ### stray
            NOP
            """
        let all = try await CompatibilityMatrixTests.run(text, in: folder, server: server)
        // Then both requests carry the shared header (the first keeps its own Accept) and ran the shared
        // handler; the stray NOP is an error at its line
        #expect(all.status == 3)
        #expect(server.requests.map(\.target) == ["/one", "/two?count=1", "/three?count=2"], "\(all.stderr)")
        #expect(server.requests.map { $0.header("X-Team") } == ["core", "core", "core"])
        #expect(server.requests.map { $0.header("Accept") } == ["text/plain", "application/json", "application/json"])
        #expect(all.stdout.components(separatedBy: "note: shared").count == 4, "\(all.stdout)")
        #expect(all.stderr.contains("api.http:20: kulala's 'NOP' placeholder stands only in the file's first block"),
                "\(all.stderr)")
        // And one request picked by name gets them too
        let one = try await CompatibilityMatrixTests.run(text, in: folder, server: server, arguments: ["--name", "one"])
        #expect(one.status == 3, "\(one.stderr)")
        #expect(server.requests.count == 4)
        #expect(server.requests.last?.target == "/one")
        #expect(server.requests.last?.header("X-Team") == "core")
    }
    @Test func noAutoEncodingPutsAVariablesValueIntoTheQueryAsURLText() async throws {
        // Given a value already in URL syntax, sent once as data and once under JetBrains' @no-auto-encoding
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            @q = a%20b&c=d
            GET BASE/data?q={{q}}

            ###
            # @no-auto-encoding
            GET BASE/text?q={{q}}
            """, in: folder, server: server)
        // Then the first is encoded as one value; the second keeps its escape and its second field
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/data?q=a%2520b%26c%3Dd", "/text?q=a%20b&c=d"])
    }
}

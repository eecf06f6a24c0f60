import CourierTestSupport
import Foundation
import Testing

/// httpyac's `{{ expression }}`: text between the braces that is not a variable name is JavaScript, run on
/// JavaScriptCore with the file's variables, script exports and named responses in scope, when a request is
/// sent; `courier check` runs none of it.
@Suite("httpyac expressions on the wire")
struct HttpyacExpressionRunTests {
    @Test func anExpressionSeesExportsVariablesAndNamedResponses() async throws {
        // Given httpyac's own example (an export holding `{{baz}}`), arithmetic, and a method called on a field
        // of a named response
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let (result, queries) = try await HttpyacVariableRunTests.run("""
            @baz=works
            {{
              exports.testObj = { bar: '{{baz}}'};
            }}
            # @name first
            GET BASE/echo?test={{JSON.stringify(testObj)}}&sum={{1 + 1}}
            ###
            GET BASE/echo?upper={{first.query.sum.padStart(3, "0")}}&id={{$uuid}}
            """, server: server)
        // Then the server got the expressions' values; JetBrains' `{{$uuid}}` is still a UUID
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(queries.first == #"test={"bar":"works"}&sum=2"#)
        let second = queries.last ?? ""
        #expect(second.hasPrefix("upper=002&id="), "\(second)")
        #expect(UUID(uuidString: String(second.dropFirst("upper=002&id=".count))) != nil, "\(second)")
    }

    @Test func aThrowingExpressionNamesItselfAndAnUnknownNameStaysAnUnknownVariable() async throws {
        // Given an expression that throws, a plain unknown name, and a request that is fine
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let (result, queries) = try await HttpyacVariableRunTests.run("""
            GET BASE/echo?a={{nothingHere()}}
            ###
            GET BASE/echo?b={{nope}}
            ###
            GET BASE/echo?c=1
            """, server: server)
        // Then each failure names what failed, and the good request still went out
        let output = result.stdout + result.stderr
        #expect(result.status != 0)
        #expect(output.contains("vars.http:1: bad dynamic variable '{{nothingHere()}}'"), "\(output)")
        #expect(output.contains("as JavaScript"), "\(output)")
        #expect(output.contains("unknown variable 'nope'"), "\(output)")
        #expect(queries == ["c=1"])
    }

    @Test func aPrivateValueAnExpressionReadsIsMaskedInTheOutput() async throws {
        // Given an expression built from a private environment value, sent to a server that echoes it back
        let server = try HttpyacVariableRunTests.echoServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", #"{"dev": {"user": "ada"}}"#)
        try folder.write("http-client.private.env.json", #"{"dev": {"apiKey": "s3cretKey"}}"#)
        try folder.write("vars.http", "GET \(server.baseURL.absoluteString)/echo?k={{'key-' + apiKey}}\n")
        // When it runs
        let result = try await CourierCLI.run(["run", "vars.http", "--env", "dev"], in: folder.url)
        // Then the server got the value, and no output shows the secret
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.first?.query.removingPercentEncoding == "k=key-s3cretKey")
        #expect(!(result.stdout + result.stderr).contains("s3cretKey"), "\(result.stdout)")
    }

    @Test func checkRunsNoJavaScriptAndKnowsWhatResponsesWillSet() async throws {
        // Given a file whose expression would throw if it ran, and variables set only by responses
        let folder = try TemporaryFolder()
        try folder.write("vars.http", """
            @host = http://127.0.0.1:9
            # @name login
            GET /login
            @token={{login.token}}
            @last={{response.parsedBody.user}}
            ###
            GET /me?t={{token}}&u={{last.name}}&x={{nothingHere()}}
            """)
        // When it is checked
        let result = try await CourierCLI.run(["check", "vars.http"], in: folder.url)
        // Then nothing is reported: the check took the script and the responses as given
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("no problems"), "\(result.stdout)\(result.stderr)")
    }
}

import CourierTestSupport
import Foundation
import Testing

/// httpyac files on the wire, continued: what never reaches the wire (other protocols, a cancelled request,
/// what Courier cannot send faithfully), bodies right under the headers, batch bodies, metadata and escapes,
/// and what `courier check` makes of script-set variables.
extension HttpyacRunTests {
    @Test func otherProtocolsNeverReachTheWireAndAreReportedAtTheirLine() async throws {
        // Given an SSE request and a grpc:// line without GRPC between HTTP ones, with and without separators
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            GET BASE/before

            ###
            grpc://127.0.0.1:PORT/helloworld.Greeter/SayHello
            {"name": "ada"}
            ###
            SSE BASE/events

            ###
            GET BASE/after
            """.replacingOccurrences(of: "PORT", with: String(server.port))
        let result = try await Self.run(text, in: folder, server: server)
        // Then only the HTTP requests were sent, and each refusal names its line
        #expect(result.status == 3)
        #expect(server.requests.map(\.requestLine) == ["GET /before HTTP/1.1", "GET /after HTTP/1.1"])
        #expect(result.stderr.contains("api.http:4: a gRPC call is written 'GRPC host:port/package.Service/Method'"),
                "\(result.stderr)")
        #expect(result.stderr.contains("api.http:7: httpyac's server-sent event requests"), "\(result.stderr)")
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status != 0)
        #expect(check.stdout.contains("api.http:4:") || check.stderr.contains("api.http:4:"), "\(check.stdout)\(check.stderr)")
    }

    @Test func courierSendRefusesAnotherProtocolsMethodWordToo() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", "grpc", server.base + "/helloworld.Greeter/SayHello"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("gRPC is not an HTTP method: call with 'courier grpc call HOST"),
                "\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func aScriptExportingCancelStopsItsRequest() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            {{
              exports.$cancel = true;
            }}
            GET BASE/never

            ###
            GET BASE/sent
            """, in: folder, server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/sent"])
        #expect(result.stdout.contains("exported $cancel"), "\(result.stdout)")
    }

    @Test func aFormBodyRightUnderTheHeadersIsTheBody() async throws {
        // Given httpyac's form request: an indented request line, the body with no blank line above it
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @clientId=test
            @clientSecret=xxxx-xxxxxxx
                      POST BASE/token
            content-type: application/x-www-form-urlencoded
            grant_type=client_credentials&client_id={{clientId}}&client_secret={{clientSecret}}
            """, in: folder, server: server)
        // Then it went out with that body
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/token"])
        #expect(server.requests.first?.bodyText == "grant_type=client_credentials&client_id=test&client_secret=xxxx-xxxxxxx")
    }

    @Test func aBatchBodysRequestLinesAndAFileWithForcedSeparatorsStayInTheirRequest() async throws {
        // Given an OData batch (multipart/mixed) whose parts are requests, and a request after its closing boundary
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let batch = try await Self.run("""
            POST BASE/$batch
            Content-Type: multipart/mixed; boundary=batch_1

            --batch_1
            Content-Type: application/http

            GET /service/Customers('ALFKI') HTTP/1.1

            --batch_1--

            GET BASE/after
            """, in: folder, server: server)
        // Then the batch went out whole, and the request after it went out on its own
        #expect(batch.status == 0, "\(batch.stdout)\(batch.stderr)")
        #expect(server.requests.map(\.target) == ["/$batch", "/after"])
        #expect(server.requests.first?.bodyText.contains("GET /service/Customers('ALFKI') HTTP/1.1") == true)
        #expect(server.requests.first?.bodyText.hasSuffix("--batch_1--") == true, "\(server.requests.first?.bodyText ?? "")")

        // Given a file marked # @forceRegionDelimiter whose body has a request line after a blank line
        let forced = try await Self.run("""
            # @forceRegionDelimiter
            POST BASE/notes
            Content-Type: text/plain

            GET /this/is/text

            ###
            GET BASE/next
            """, in: folder, server: server)
        // Then only ### separated the two requests
        #expect(forced.status == 0, "\(forced.stdout)\(forced.stderr)")
        #expect(server.requests.dropFirst(2).map(\.target) == ["/notes", "/next"])
        #expect(server.requests.dropFirst(2).first?.bodyText == "GET /this/is/text")
    }

    @Test func httpyacsMetadataAndEscapesChangeWhatIsSentAsHttpyacSays() async throws {
        // Given @disabled requests, @injectVariables, an escaped template, a lazy variable, and kulala's form
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @who := {{name}}
            @name = ada
            # @disabled
            GET BASE/never

            ###
            # @disabled 1 + 1 === 3
            # @sleep 5
            # @injectVariables
            POST BASE/inject?who={{who}}
            Content-Type: text/plain

            < ./body.txt

            ###
            POST BASE/escaped
            Content-Type: application/json

            {"template": "My \\{\\{verb\\}\\} template", "who": "{{who}}"}

            ###
            POST BASE/form
            Content-Type: application/x-www-form-urlencoded

            name={{name}}&
            age=30

            ###
            POST BASE/spaced
            Content-Type: application/x-www-form-urlencoded

            foo = a &
            bar = bl a
            """, in: folder, server: server, extra: ["body.txt": "hello {{name}}"])
        // Then the disabled one is skipped, the rest go out as httpyac and kulala send them
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/inject?who=ada", "/escaped", "/form", "/spaced"])
        #expect(server.requests.last?.bodyText == "foo=a&bar=bl%20a")
        #expect(server.requests[0].bodyText == "hello ada")
        #expect(server.requests[1].bodyText == #"{"template": "My {{verb}} template", "who": "ada"}"#)
        #expect(server.requests[2].bodyText == "name=ada&age=30")
        #expect(result.stdout.contains("disabled (# @disabled)"), "\(result.stdout)")
    }

    @Test func whatCourierCannotSendFaithfullyIsRefusedAtItsLine() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            # @use-os-credentials
            GET BASE/windows

            ###
            # @proxy http://proxy:3128
            GET BASE/proxied

            ###
            GET BASE/fine
            """, in: folder, server: server)
        #expect(result.status == 3)
        #expect(server.requests.map(\.target) == ["/fine"])
        #expect(result.stderr.contains("api.http:1: '# @use-os-credentials' signs in with the operating system's"),
                "\(result.stderr)")
        #expect(result.stderr.contains("api.http:5: httpyac's '# @proxy' is not supported"), "\(result.stderr)")
    }

    @Test func checkTakesWhatScriptsAndLoopsSetAsGivenAndReportsUnknownVariablesAndReferences() async throws {
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            @host = http://127.0.0.1:1
            # @name login
            POST /login

            {{
              exports.token = response.parsedBody.token;
            }}

            ###
            GET /me
            Authorization: Bearer {{token}}
            X-Other: {{nobodySetsThis}}

            ###
            # @loop for item of ["a", "b"]
            # @ref nobody
            GET /items/{{item}}?at={{$index}}
            """)
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 1)
        #expect(!check.stdout.contains("'token'") && !check.stdout.contains("'item'"), "\(check.stdout)")
        #expect(check.stdout.contains("api.http:12: unknown variable 'nobodySetsThis'"), "\(check.stdout)")
        #expect(check.stdout.contains("api.http:16: '# @ref nobody' names no request"), "\(check.stdout)")
        #expect(check.stderr.contains("2 problems"), "\(check.stderr)")
    }
}

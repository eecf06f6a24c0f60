import CourierTestSupport
import Foundation
import Testing

/// Compatibility rows about environments and variables, on the wire (see `CompatibilityMatrixTests`).
@Suite("Compatibility: environments and variables")
struct CompatibilityEnvironmentTests {
    @Test func sharedAndPrivateEnvironmentsMergeAndPrivateValuesArePrintedRedacted() async throws {
        let server = try CaptureServer(issuing: "fresh")
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            < {% request.variables.set("seen", "env-" + request.environment.get("region")) %}
            GET {{host}}/env?user={{user}}
            X-Key: {{key}}
            X-Region: {{region}}
            X-Seen: {{seen}}
            """, in: folder, server: server, extra: [
                "http-client.env.json": #"{"$shared": {"user": "ada", "region": "eu"}, "dev": {"host": "BASE", "region": "us"}}"#,
                "http-client.private.env.json": #"{"dev": {"key": "s3cr3t-value"}}"#,
            ], arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.target == "/env?user=ada")
        #expect(request.header("X-Key") == "s3cr3t-value")
        #expect(request.header("X-Region") == "us", "a named environment beats $shared")
        #expect(request.header("X-Seen") == "env-us", "request.environment.get reads the selected environment")
        // The server echoes the headers back; the private value never reaches the output.
        #expect(!result.stdout.contains("s3cr3t-value") && result.stdout.contains("REDACTED"), "\(result.stdout)")
    }

    @Test func restClientEnvironmentsInVSCodeSettingsWorkWithCommentsTrailingCommasAndSharedReferences() async throws {
        // Given a REST Client workspace: environments in .vscode/settings.json, JSON with comments
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let settings = """
            {
                // editor settings Courier ignores
                "editor.tabSize": 4,
                /* the REST Client's environments */
                "rest-client.environmentVariables": {
                    "$shared": { "version": "v1", "token": "shared-token", },
                    "local": { "host": "BASE", "version": "v2", "auth": "Bearer {{$shared token}}", },
                },
            }
            """
        let result = try await CompatibilityMatrixTests.run("""
            GET {{host}}/{{version}}/me
            Authorization: {{auth}}
            """, in: folder, server: server, extra: [".vscode/settings.json": settings],
            arguments: ["--all", "--env", "local"])
        // Then the named environment beats $shared and a {{$shared name}} reference takes the shared value
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.target == "/v2/me")
        #expect(request.header("Authorization") == "Bearer shared-token")
    }

    @Test func restClientDateTimeRandomAndProcessEnvironmentVariablesExpand() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE/dyn
            X-Guid: {{$guid}}
            X-Iso: {{$datetime iso8601}}
            X-Hour-Later: {{$datetime iso8601 1 h}}
            X-Local: {{$localDatetime "YYYY"}}
            X-Rfc: {{$datetime rfc1123}}
            X-Int: {{$randomInt 7 8}}
            X-Iso-Timestamp: {{$isoTimestamp}}
            X-Uuid: {{$random.uuid}}
            X-Env: {{$processEnv COURIER_MATRIX_VALUE}}
            X-Jb-Env: {{$env.COURIER_MATRIX_VALUE}}
            """, in: folder, server: server, environment: ["COURIER_MATRIX_VALUE": "from-env"])
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(UUID(uuidString: request.header("X-Guid") ?? "") != nil)
        #expect(UUID(uuidString: request.header("X-Uuid") ?? "") != nil)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        func date(_ text: String?) -> Date? { text.flatMap { iso.date(from: $0) ?? plain.date(from: $0) } }
        let now = try #require(date(request.header("X-Iso")), "\(request.headerLines)")
        let later = try #require(date(request.header("X-Hour-Later")))
        #expect(abs(later.timeIntervalSince(now) - 3600) < 2)
        #expect(date(request.header("X-Iso-Timestamp")) != nil)
        #expect(request.header("X-Local")?.count == 4)
        #expect(request.header("X-Rfc")?.hasSuffix("GMT") == true)
        #expect(request.header("X-Int") == "7")
        #expect(request.header("X-Env") == "from-env")
        #expect(request.header("X-Jb-Env") == "from-env")
        #expect(!result.stdout.contains("from-env"), "process environment values are secrets")
    }

    @Test func aVariableWrittenInAnotherRequestIsAFileVariableAsTheRESTClientReadsIt() async throws {
        // Given REST Client style `@name` lines inside request blocks, used by requests above and below them
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE/first/{{later}}

            ###
            @name = hello
            @later = below
            GET BASE/second/{{name}}

            ###
            @name = again
            GET BASE/third/{{name}}

            ###
            GET BASE/fourth/{{name}}
            """, in: folder, server: server)
        // Then a name no other source defines takes the nearest definition above, else the first below
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/first/below", "/second/hello", "/third/again", "/fourth/again"])
    }
}

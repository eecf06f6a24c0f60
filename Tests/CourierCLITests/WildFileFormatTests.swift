import CourierTestSupport
import Foundation
import Testing

/// Where real projects keep their request files, and files of other tools given where a `.http` file
/// belongs: what `courier run` and `courier check` make of them.
@Suite("Request files from the wild: folders and formats")
struct WildFileFormatTests {
    @Test func aFolderRunFindsTheRequestsKeptInAHiddenHttpFolderButNotTheIDEsRequestLog() async throws {
        // Given a project that keeps its requests in `.http/` (and `.rest/`), and an IDE folder with a request log
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("server/.http/auth.http", "GET \(server.base)/auth\n")
        try folder.write(".rest/users.rest", "GET \(server.base)/users\n")
        try folder.write(".idea/httpRequests/http-requests-log.http", "GET \(server.base)/logged\n")
        // When the project's folder is run
        let result = try await CourierCLI.run(["run", ".", "--all"], in: folder.url)
        // Then the requests of both folders reach the server, and the log is left alone
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Set(server.requests.map(\.target)) == ["/auth", "/users"])
    }

    @Test func aPostmanCollectionGivenToCheckSaysHowToConvertIt() async throws {
        // Given a Postman collection where a .http file belongs
        let folder = try TemporaryFolder()
        try folder.write("shop.postman_collection.json", """
            {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "List", "request": {"method": "GET", "url": "http://127.0.0.1:1/items"}}]}
            """)
        // When it is checked (`courier run` runs it: PostmanCollectionRunTests)
        let check = try await CourierCLI.run(["check", "shop.postman_collection.json"], in: folder.url)
        // Then it names the file and line 1 and gives the command that converts it; no JSON is shown as a request
        let advice = "shop.postman_collection.json:1: a Postman collection, not a .http file: convert it with "
            + "'courier import postman shop.postman_collection.json -o DIR', then run 'courier run DIR'"
        for result in [check] {
            #expect(result.status != 0)
            #expect((result.stdout + result.stderr).contains(advice), "\(result.stdout)\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("\"item\""), "\(result.stdout)\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("json:1: shop"), "\(result.stdout)\(result.stderr)")
        }
    }

    @Test func otherToolsFilesAreNamedWithTheirImportCommand() async throws {
        // Given a HAR capture, an OpenAPI description and plain JSON given to check
        let folder = try TemporaryFolder()
        try folder.write("capture.har", #"{"log": {"version": "1.2", "entries": []}}"#)
        try folder.write("api.yaml", "openapi: 3.0.0\ninfo:\n  title: Shop\npaths: {}\n")
        try folder.write("body.json", #"{"name": "ada"}"#)
        // When each is checked
        let har = try await CourierCLI.run(["check", "capture.har"], in: folder.url)
        let openAPI = try await CourierCLI.run(["check", "api.yaml"], in: folder.url)
        let json = try await CourierCLI.run(["check", "body.json"], in: folder.url)
        // Then the message says what the file is and which command reads it
        #expect(har.stdout.contains("capture.har:1: a HAR capture, not a .http file: convert it with "
                                    + "'courier import har capture.har -o DIR'"), "\(har.stdout)")
        #expect(openAPI.stdout.contains("api.yaml:1: an OpenAPI description, not a .http file"), "\(openAPI.stdout)")
        #expect(json.stdout.contains("body.json:1: a JSON file, not a .http file"), "\(json.stdout)")
        #expect([har.status, openAPI.status, json.status].allSatisfy { $0 == 1 })
    }

    @Test func plainValuesOfAProjectsEnvFileAreNotMaskedButItsSecretsAre() async throws {
        // Given a project's .env.dev beside the requests: a scheme, a flag, a port and a token
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let port = server.base.split(separator: ":").last.map(String.init) ?? ""
        try folder.write(".env.dev", "APP_SCHEMA=http\nAPP_BANNER=true\nAPP_PORT=\(port)\nAPI_TOKEN=tok-9f8e7d6c5b\n")
        try folder.write("http-client.env.json", #"{"dev": {"host": "127.0.0.1"}}"#)
        // When a request built from them runs with JSON output
        let result = try await CompatibilityMatrixTests.run("""
            GET {{APP_SCHEMA}}://{{host}}:{{APP_PORT}}/items?token={{API_TOKEN}}

            > {% client.test("ok", function() { client.assert(response.status === 200); }); %}
            """, in: folder, server: server, arguments: ["--env", "dev", "--json"])
        // Then the token reached the server and is masked in the output, while every line is still JSON with
        // its `true`, its URL and its port intact
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/items?token=tok-9f8e7d6c5b"])
        #expect(!result.stdout.contains("tok-9f8e7d6c5b"), "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(!lines.isEmpty)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
        #expect(result.stdout.contains("\"passed\":true") && result.stdout.contains("\"http_version\""), "\(result.stdout)")
        #expect(result.stdout.contains(server.base + "/items"), "\(result.stdout)")
    }

    @Test func aFolderWhoseRequestsAreInAnotherHiddenFolderSaysWhereTheyAre() async throws {
        // Given a project whose only requests sit in a hidden CI folder
        let folder = try TemporaryFolder()
        try folder.write("project/.ci/smoke.http", "GET http://127.0.0.1:1/ping\n")
        try folder.write("project/.git/HEAD", "ref: refs/heads/main\n")
        // When the project is run and checked
        let run = try await CourierCLI.run(["run", "project", "--all"], in: folder.url)
        let check = try await CourierCLI.run(["check", "project"], in: folder.url)
        // Then both say that nothing was found, which hidden folder holds requests and the command that runs them;
        // check does not call an empty folder "no problems"
        let advice = "no .http or .rest files in this folder; hidden folders are not searched, and .ci holds some: "
            + "run 'courier run project/.ci'"
        #expect(run.status == 2)
        #expect(run.stderr.contains(advice), "\(run.stderr)")
        #expect(check.status == 1)
        #expect(check.stdout.contains("project: " + advice), "\(check.stdout)")
    }

    @Test func aResponseDocumentedUnderARequestIsNotSentWithIt() async throws {
        // Given requests with the responses httpyac saved under them, and a body that only mentions a status line
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            POST BASE/items
            Content-Type: application/json

            {"name": "ada"}

            HTTP/1.1 201  - Created
            content-type: application/json

            {"id": 1}

            ###
            GET BASE/list

            HTTP/1.1 200  - OK
            date: Sat, 17 Feb 2024 05:20:24 GMT

            ###
            POST BASE/notes
            Content-Type: text/plain

            first line
            HTTP/1.1 200 OK is what the server says
            """
        // When they run
        let result = try await CompatibilityMatrixTests.run(text, in: folder, server: server)
        // Then each request went out without the response under it; a body's own line stays in the body
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/items", "/list", "/notes"])
        #expect(server.requests.map(\.bodyText) == [#"{"name": "ada"}"#, "",
                                                     "first line\nHTTP/1.1 200 OK is what the server says"])
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}

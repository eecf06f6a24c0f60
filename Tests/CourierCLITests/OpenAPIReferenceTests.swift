import CourierTestSupport
import Foundation
import Testing

/// `courier import openapi` on descriptions split across files and URLs (`$ref` to other documents), each
/// imported and then run against a loopback server that shows what the split parts made of the request.
@Suite("OpenAPI $ref across files and URLs")
struct OpenAPIReferenceTests {
    /// The parts of a description split the ways real ones are: path items in their own files, schemas in a
    /// JSON file reached by a pointer, a schema of a third file named relative to the second, a cycle across
    /// files, and a parameter shared through a file above.
    static let parts: [String: String] = [
        "api/openapi.yaml": """
            openapi: 3.0.3
            info: {title: Split, version: "1"}
            servers: [{url: "BASE", description: local}]
            paths:
              /users:
                $ref: ./paths/users.yaml
              /users/{id}:
                $ref: "paths/user.yaml#/item"
            """,
        "api/paths/users.yaml": """
            post:
              operationId: createUser
              tags: [users]
              requestBody:
                content:
                  application/json:
                    schema:
                      $ref: ../schemas/all.json#/components/schemas/User
              responses: {"201": {description: created}}
            """,
        "api/paths/user.yaml": """
            item:
              get:
                operationId: getUser
                tags: [users]
                parameters:
                  - $ref: "../common/params.yaml#/Id"
                responses: {"200": {description: ok}}
            """,
        "api/common/params.yaml": """
            Id: {name: id, in: path, required: true, schema: {type: integer, example: 42}}
            """,
        "api/schemas/all.json": """
            {"components": {"schemas": {
              "User": {"type": "object", "properties": {
                "name": {"type": "string", "example": "ada"},
                "team": {"$ref": "team.yaml"},
                "manager": {"$ref": "#/components/schemas/User"}}}}}}
            """,
        "api/schemas/team.yaml": """
            type: object
            properties:
              title: {type: string, example: engines}
              lead: {$ref: "all.json#/components/schemas/User"}
            """,
    ]

    /// Writes the parts into `folder` with the server's origin, imports `api/openapi.yaml` (or `source`), then
    /// runs what was written.
    static func importAndRun(_ folder: TemporaryFolder, server: CaptureServer, source: String? = nil,
                             parts: [String: String] = parts, arguments: [String] = [])
        async throws -> (imported: ChildResult, run: ChildResult) {
        for (path, text) in parts { try folder.write(path, text.replacingOccurrences(of: "BASE", with: server.base)) }
        let out = folder.url.appendingPathComponent("out").path
        let imported = try await CourierCLI.run(["import", "openapi", source ?? "api/openapi.yaml", "-o", out]
                                                    + arguments, in: folder.url)
        let run = try await CourierCLI.run(["run", out, "--all", "--env", "local"], in: folder.url)
        return (imported, run)
    }

    @Test func pathItemsSchemasAndParametersInOtherFilesBecomeTheRequestsTheyDescribe() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (imported, run) = try await Self.importAndRun(folder, server: server)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("not followed"), "\(imported.stderr)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let create = try #require(server.requests.first { $0.method == "POST" })
        #expect(create.target == "/users")
        let body = try #require(JSONSerialization.jsonObject(with: create.body) as? [String: Any])
        #expect(body["name"] as? String == "ada")
        // The cycle across files (User → team → lead: User) is cut where it comes back
        let team = try #require(body["team"] as? [String: Any])
        #expect(team["title"] as? String == "engines")
        #expect(server.requests.contains { $0.requestLine == "GET /users/42 HTTP/1.1" })
    }

    @Test func aFileOutsideTheDescriptionsFolderIsNotReadUnlessAllowed() async throws {
        // Given a description whose $ref leaves its folder for a file beside it
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var parts = Self.parts
        parts["api/openapi.yaml"] = (parts["api/openapi.yaml"] ?? "") + "\n  /outside:\n    $ref: ../outside.yaml\n"
        parts["outside.yaml"] = "get: {operationId: outsider, responses: {\"200\": {description: ok}}}\n"
        // When it is imported without and with --allow-read
        let (refused, _) = try await Self.importAndRun(folder, server: server, parts: parts)
        let allowedFolder = try TemporaryFolder()
        let (allowed, run) = try await Self.importAndRun(allowedFolder, server: server, parts: parts, arguments: [
            "--allow-read", allowedFolder.url.appendingPathComponent("outside.yaml").path,
        ])
        // Then the first says why and leaves it out; the second imports it
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("$ref ../outside.yaml was not followed")
                && refused.stderr.contains("--allow-read"), "\(refused.stderr)")
        let out = folder.url.appendingPathComponent("out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["http-client.env.json", "http-client.private.env.json", "users.http"])
        #expect(allowed.status == 0 && run.status == 0, "\(allowed.stderr)\(run.stdout)\(run.stderr)")
        #expect(server.requests.contains { $0.target == "/outside" })
    }

    @Test func aDescriptionServedOverHTTPHasItsPartsFetchedRelativeToEachURL() async throws {
        // Given the same parts served by a loopback server, and the API's own server
        let api = try CaptureServer()
        defer { api.stop() }
        let parts = Self.parts.mapValues { $0.replacingOccurrences(of: "BASE", with: api.base) }
        let files = try LoopbackServer { request in
            guard let text = parts[String(request.path.dropFirst())] else { return .init(status: 404) }
            return .init(headers: [("Content-Type", "text/plain")], body: Data(text.utf8))
        }
        defer { files.stop() }
        let folder = try TemporaryFolder()
        // When it is imported from its URL
        let (imported, run) = try await Self.importAndRun(folder, server: api, source: files.url("/api/openapi.yaml")
            .absoluteString, parts: [:])
        // Then every part was fetched, each once, and the requests send what the parts describe
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("not followed"), "\(imported.stderr)")
        #expect(Set(files.requests.map(\.path)) == Set(Self.parts.keys.map { "/" + $0 }))
        #expect(files.requests.count == Self.parts.count)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let create = try #require(api.requests.first { $0.method == "POST" })
        #expect(String(decoding: create.body, as: UTF8.self).contains("engines"))
    }

    @Test func aDescriptionFromAURLReadsNoLocalFileAndAMissingPartIsNamed() async throws {
        let api = try CaptureServer()
        defer { api.stop() }
        let secret = try TemporaryFolder()
        try secret.write("secret.yaml", "get: {operationId: leaked}\n")
        let root = """
            openapi: 3.0.3
            info: {title: Remote, version: "1"}
            paths:
              /local:
                $ref: "file://\(secret.url.appendingPathComponent("secret.yaml").path)"
              /gone:
                $ref: ./missing.yaml
            """
        let files = try LoopbackServer { request in
            request.path == "/openapi.yaml" ? .init(body: Data(root.utf8)) : .init(status: 404)
        }
        defer { files.stop() }
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("out").path
        let imported = try await CourierCLI.run(["import", "openapi", files.url("/openapi.yaml").absoluteString,
                                                 "-o", out])
        #expect(imported.stderr.contains("reads no local files"), "\(imported.stderr)")
        #expect(imported.stderr.contains("missing.yaml") && imported.stderr.contains("404"), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/default.http"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy {
            !(try String(contentsOfFile: out + "/" + $0, encoding: .utf8)).contains("leaked")
        })
    }
}

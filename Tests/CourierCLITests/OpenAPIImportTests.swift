import CourierTestSupport
import CourierDemo
import Foundation
import Testing
@testable import CourierCollections

/// `courier import openapi` on descriptions of the shapes found in the wild, each imported by the built
/// binary and then run with `courier run` against the demo server, whose log shows what it received.
@Suite(.serialized) struct OpenAPIImportTests {
    let server: DemoServer
    let folder: URL

    init() throws {
        server = try DemoServer.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static let fixtures = CourierCLI.packageRoot.appendingPathComponent("Tests/CourierCollectionsTests/Fixtures/openapi")
    var base: String { "http://127.0.0.1:\(server.port)" }

    /// Imports `fixture` into a fresh folder and runs every request in it; returns the folder and the run.
    func importAndRun(_ fixture: String, env: String, vars: [String: String]) async throws
        -> (output: URL, imported: ChildResult, run: ChildResult) {
        let output = folder.appendingPathComponent(fixture)
        let imported = try await CourierCLI.run(["import", "openapi", Self.fixtures.appendingPathComponent(fixture).path,
                                              "-o", output.path])
        var arguments = ["run", output.path, "--all", "--env", env, "--json"]
        for (name, value) in vars.sorted(by: { $0.key < $1.key }) { arguments += ["--var", "\(name)=\(value)"] }
        let run = try await CourierCLI.run(arguments, environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        return (output, imported, run)
    }

    func received(_ method: String, _ path: String) -> DemoLogEntry? {
        server.log.first { $0.method == method && $0.path == path }
    }

    func json(_ entry: DemoLogEntry?) -> [String: Any] {
        (entry.flatMap { try? JSONSerialization.jsonObject(with: $0.bodyPrefix) } as? [String: Any]) ?? [:]
    }

    @Test func aPetstoreInYAMLBecomesOneFilePerTagThatSendsWhatTheDescriptionSays() async throws {
        defer { cleanUp() }
        // When the petstore is imported and run with a token
        let (output, imported, run) = try await importAndRun("petstore.yaml", env: "local",
                                                       vars: ["baseUrl": base + "/v1", "token": "tok-1", "apiKeyQuery": "k-9"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == ["http-client.env.json", "http-client.private.env.json", "pets.http", "store.http"])
        // Then each operation reached the server as described: parameters from their examples and
        // defaults, the bearer token, the JSON example body, the API key in the query
        let list = received("GET", "/v1/pets")
        #expect(list?.query.map { "\($0.name)=\($0.value)" } == ["limit=20"], "\(run.stdout)\(run.stderr)")
        #expect(list?.header("X-Request-ID") == "req-42")
        #expect(list?.header("Authorization") == "Bearer tok-1")
        #expect(json(received("POST", "/v1/pets")) as NSDictionary == ["name": "Rex", "tag": "dog"])
        #expect(received("POST", "/v1/pets")?.header("Content-Type") == "application/json")
        #expect(received("GET", "/v1/pets/7") != nil)
        #expect(received("DELETE", "/v1/pets/7")?.query.first { $0.name == "api_key" }?.value == "k-9")
        #expect(received("GET", "/v1/store/inventory") != nil)
        // And the servers became environments, the server variable included, and the secret went private
        let environments = try JSONSerialization.jsonObject(
            with: Data(contentsOf: output.appendingPathComponent("http-client.env.json"))) as? [String: [String: String]]
        #expect(environments?["production"]?["baseUrl"] == "https://eu.petstore.example/v1")
        #expect(environments?["production"]?["region"] == "eu")
        #expect(environments?["local"]?["baseUrl"] == "http://localhost:8080/v1")
        let secrets = try JSONSerialization.jsonObject(
            with: Data(contentsOf: output.appendingPathComponent("http-client.private.env.json"))) as? [String: [String: String]]
        #expect(secrets?["local"]?.keys.sorted() == ["apiKeyQuery", "token"])
        // And the import left out the optional parameter without an example, saying so in the file
        let pets = try String(contentsOf: output.appendingPathComponent("pets.http"), encoding: .utf8)
        #expect(pets.contains("# optional parameters left out: sort (query)"))
        #expect(pets.contains("# @name listPets"))
    }

    @Test func deepReferencesAndAllOfBuildTheBodyAndCyclesStop() async throws {
        defer { cleanUp() }
        let (_, imported, run) = try await importAndRun("deep-refs.json", env: "localhost",
                                                  vars: ["baseUrl": base + "/api", "username": "ada", "password": "pw",
                                                         "session": "s-1"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then the order body was built through allOf and three levels of $ref, the cycles cut short
        let order = json(received("POST", "/api/orders"))
        #expect((order["customer"] as? [String: Any])?["name"] as? String == "Ada", "\(run.stdout)\(run.stderr)")
        #expect((order["customer"] as? [String: Any])?["email"] as? String == "user@example.com")
        #expect(((order["lines"] as? [[String: Any]])?.first)?["sku"] as? String == "SKU-1")
        #expect(order["status"] as? String == "open")
        #expect(received("POST", "/api/orders")?.header("Authorization") == "Basic " + Data("ada:pw".utf8).base64EncodedString())
        // And the referenced path parameter and the cookie API key were sent
        let get = received("GET", "/api/orders/00000000-0000-0000-0000-000000000000")
        #expect(get?.header("Cookie") == "SESSIONID=s-1")
    }

    @Test func anOpenAPI31DescriptionWithWebhooksAndClientCredentials() async throws {
        defer { cleanUp() }
        // Given the 3.1 description imported, its OAuth2 client credentials a Security.Auth configuration whose
        // client id and secret the user fills in (and whose token URL points at the demo's provider)
        let output = folder.appendingPathComponent("webhooks-3.1.yaml")
        let imported = try await CourierCLI.run(["import", "openapi",
                                                 Self.fixtures.appendingPathComponent("webhooks-3.1.yaml").path,
                                                 "-o", output.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shared = try String(contentsOf: output.appendingPathComponent("http-client.env.json"), encoding: .utf8)
        #expect(shared.contains("\"Grant Type\" : \"Client Credentials\"") && shared.contains("\"Scope\" : \"events.write\""),
                "\(shared)")
        try Data(shared.replacingOccurrences(of: "http://localhost:7000/oauth/token", with: base + "/oauth/token").utf8)
            .write(to: output.appendingPathComponent("http-client.env.json"))
        let secrets = output.appendingPathComponent("http-client.private.env.json")
        let blank = try String(contentsOf: secrets, encoding: .utf8)
        #expect(blank.contains("\"Client Secret\" : \"\""), "\(blank)")
        try Data(blank.replacingOccurrences(of: "\"Client ID\" : \"\"", with: "\"Client ID\" : \"demo-client\"")
            .replacingOccurrences(of: "\"Client Secret\" : \"\"", with: "\"Client Secret\" : \"demo-secret\"").utf8)
            .write(to: secrets)
        // When every request runs
        let run = try await CourierCLI.run(["run", output.path, "--all", "--env", "local", "--json",
                                            "--var", "baseUrl=\(base)", "--var", "webhookUrl=\(base)/hook"],
                                           environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        #expect(json(received("POST", "/events")) as NSDictionary == ["kind": "signup", "user": "ada"],
                "\(run.stdout)\(run.stderr)")
        // Then Courier got a token from the provider and sent it, never printing it
        let token = String(decoding: received("POST", "/oauth/token")?.bodyPrefix ?? Data(), as: UTF8.self)
        #expect(token.contains("grant_type=client_credentials") && token.contains("scope=events.write"), "\(token)")
        let authorization = received("POST", "/events")?.header("Authorization") ?? ""
        #expect(authorization.hasPrefix("Bearer ") && authorization.count > 12, "\(authorization)")
        #expect(!run.stdout.contains(authorization.dropFirst(7)) && !run.stderr.contains(authorization.dropFirst(7)))
        #expect(received("GET", "/events")?.query.first?.value == "2026-05-01")
        // The webhook is a request to {{webhookUrl}} with a body from its schema (3.1 examples and const)
        let hook = json(received("POST", "/hook"))
        #expect(hook["id"] as? Int == 99 && hook["kind"] as? String == "created", "\(hook)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files.contains("webhooks.http") && !files.contains("auth.http"))
    }

    @Test func swagger2BodiesAndFormFieldsAndItsNote() async throws {
        defer { cleanUp() }
        let (_, imported, run) = try await importAndRun("swagger2.json", env: "default",
                                                  vars: ["baseUrl": base + "/v2", "key": "k-2"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("note: Swagger 2.0:"))
        let user = json(received("POST", "/v2/users"))
        #expect(user["name"] as? String == "Grace" && user["age"] as? Int == 36, "\(run.stdout)\(run.stderr)")
        #expect(received("POST", "/v2/users")?.header("X-API-Key") == "k-2")
        let avatar = received("PUT", "/v2/users/5/avatar")
        #expect(String(decoding: avatar?.bodyPrefix ?? Data(), as: UTF8.self) == "color=blue")
        #expect(avatar?.header("Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func aDescriptionWithThousandsOfOperationsImportsIntoFilesThatParseCleanly() throws {
        defer { cleanUp() }
        // Given 3,000 operations over 30 tags
        let data = try JSONSerialization.data(withJSONObject: OpenAPIImportTests.largeDescription(operations: 3000))
        // When it is converted
        let conversion = try OpenAPIImporter.convert(data)
        // Then every operation is a request, and every file parses without a diagnostic
        #expect(conversion.requestCount == 3000)
        #expect(conversion.files.count == 30)
        var requests = 0
        for file in conversion.files {
            let parsed = HTTPFile(path: file.name, text: file.text)
            #expect(parsed.diagnostics.isEmpty, "\(file.name): \(parsed.diagnostics)")
            requests += parsed.requests.count
        }
        #expect(requests == 3000)
    }

    @Test func aBrokenDescriptionIsAClearError() async throws {
        defer { cleanUp() }
        let bad = folder.appendingPathComponent("bad.yaml")
        try Data("openapi: 3.0.0\npaths:\n  /x: [unclosed\n".utf8).write(to: bad)
        let result = try await CourierCLI.run(["import", "openapi", bad.path, "-o", folder.appendingPathComponent("out").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("YAML line"), "\(result.stderr)")
    }

    /// A generated description: `operations` GET/POST operations with parameters, bodies and refs.
    static func largeDescription(operations: Int) -> [String: Any] {
        var paths: [String: Any] = [:]
        for index in 0..<(operations / 2) {
            let tag = "group\(index % 30)"
            paths["/resources\(index)/{id}"] = [
                "get": ["tags": [tag], "operationId": "get\(index)",
                        "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "integer"]],
                                       ["name": "q", "in": "query", "schema": ["type": "string", "example": "x"]]],
                        "responses": ["200": ["description": "ok"]]],
                "post": ["tags": [tag], "operationId": "post\(index)",
                         "requestBody": ["content": ["application/json": ["schema": ["$ref": "#/components/schemas/Item"]]]],
                         "responses": ["200": ["description": "ok"]]],
            ]
        }
        return ["openapi": "3.0.0", "info": ["title": "Large", "version": "1"],
                "servers": [["url": "http://localhost:1234"]], "paths": paths,
                "components": ["schemas": ["Item": ["type": "object", "properties": [
                    "name": ["type": "string"], "children": ["type": "array", "items": ["$ref": "#/components/schemas/Item"]],
                ]]]]]
    }
}

/// Hostile descriptions stay bounded: YAML aliases that expand exponentially, schemas that fan out.
struct OpenAPIBoundsTests {
    @Test func yamlAliasesThatExpandExponentiallyAreRefused() {
        // Given nine levels of nine aliases each: 387 million values once expanded
        var text = "openapi: 3.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        // When it is imported, then it is a clear error, not a runaway
        #expect(throws: CollectionError.self) { try OpenAPIImporter.convert(Data(text.utf8)) }
    }

    /// Found by the fuzzer: `? ? ? …` nests mappings as keys, and each key spelled as text doubled in length
    /// per level (its quotes escaped again), past 2 GB from 60 bytes.
    @Test func yamlKeysThatAreMappingsAreAClearError() {
        let text = String(repeating: "? ", count: 40)
        #expect {
            try OpenAPIImporter.convert(Data(text.utf8))
        } throws: { error in
            "\(error)".contains("list or mapping as a key")
        }
        // And a number as a key (a status code) is still a key
        let statuses = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n"
        #expect((try? OpenAPIImporter.convert(Data(statuses.utf8))) != nil)
    }

    /// libyaml's scanner looks at every open flow collection for each token: `[[[…` built in time quadratic
    /// in the depth (100,000 levels: 92 s). The depth is now checked first, reading tokens only that far.
    @Test func flowNestingPastTheLimitIsRefusedAfterReadingOnlyThatFar() throws {
        // Given a million nested flow sequences, and mappings
        for open in ["[", "{a: "] {
            let depth = 1_000_000
            var bytes = Array(("x: " + String(repeating: open, count: depth)).utf8)
            // When the nesting is checked
            var scanned = 0
            let error = bytes.withUnsafeMutableBufferPointer { buffer in
                #expect(throws: CollectionError.self) {
                    try YAMLDocument.checkNesting(buffer.baseAddress!, count: buffer.count, scanned: &scanned)
                }
            }
            // Then it stops at the limit, having read a few hundred tokens of the millions there
            #expect("\(error.map { "\($0)" } ?? "")".contains("YAML line 1: nested deeper than 256 levels"))
            #expect(scanned < 10 * YAMLDocument.maxDepth, "\(scanned)")
        }
        // And a description at the limit still imports
        let nested = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let text = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: \(nested)\n"
        #expect((try? OpenAPIImporter.convert(Data(text.utf8))) != nil)
    }

    @Test func schemasThatFanOutThroughDistinctReferencesAreCutShort() throws {
        // Given twelve schemas, each with ten properties all referring to the next
        var schemas: [String: Any] = [:]
        for level in 0..<12 {
            let next: [String: Any] = level == 11 ? ["type": "string"] : ["$ref": "#/components/schemas/S\(level + 1)"]
            schemas["S\(level)"] = ["type": "object", "properties": Dictionary(uniqueKeysWithValues: (0..<10).map { ("p\($0)", next) })]
        }
        let description: [String: Any] = [
            "openapi": "3.0.0", "info": ["title": "Fan", "version": "1"],
            "paths": ["/x": ["post": ["requestBody": ["content": ["application/json": ["schema": ["$ref": "#/components/schemas/S0"]]]],
                                      "responses": [:]]]],
            "components": ["schemas": schemas],
        ]
        // When it is imported, then it finishes with a body of bounded size
        let conversion = try OpenAPIImporter.convert(try JSONSerialization.data(withJSONObject: description))
        #expect(conversion.requestCount == 1)
        #expect(conversion.files.first.map { $0.text.utf8.count < 2_000_000 } == true)
    }
}

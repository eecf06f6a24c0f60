import CourierTestSupport
import CourierDemo
import Foundation
import Testing
@testable import CourierCollections

@Suite("courier run, import and export", .serialized)
struct CommandLineTests {
    @Test func courierRunExecutesTheDemoCollectionAgainstTheEmbeddedServer() async throws {
        // Given the demo server on a free port
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let ws = "ws://127.0.0.1:\(server.port)"
        // When `courier run Collections/demo.http --all --env demo --json` runs against it
        let result = try await CourierCLI.run(["run", "Collections/demo.http", "--all", "--env", "demo",
                                            "--var", "base=\(base)", "--var", "ws=\(ws)", "--json"],
                                           in: DemoCollection.root)
        // Then it exits 0 with one JSON object per request, named, the auth flow and the WebSockets included
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let file = HTTPFile(path: "demo.http", text: try String(contentsOf: DemoCollection.file, encoding: .utf8))
        #expect(objects.count == file.requests.count)
        #expect(objects.compactMap { $0["name"] as? String } == file.requests.compactMap(\.name))
        let me = try #require(objects.first { $0["name"] as? String == "me" })
        #expect(me["status"] as? Int == 200)
        #expect(me["attempts"] as? [Any] != nil)
        #expect(result.stderr.contains("succeeded, 0 failed"))
        #expect(!result.stderr.contains("skipped"))
        let echo = try #require(objects.first { $0["name"] as? String == "wsEcho" })
        #expect(echo["type"] as? String == "websocket")
        #expect(echo["status"] as? Int == 101)
        #expect(echo["sent"] as? Int == 2)
        #expect(echo["received"] as? Int == 2)
    }

    @Test func courierRunHidesPrivateEnvironmentValuesAndFailsWithExitCodeOne() async throws {
        // Given a collection with a private token and a request that fails
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", "{\"dev\": {\"base\": \"\(server.baseURL.absoluteString)\"}}")
        try folder.write("http-client.private.env.json", #"{"dev": {"token": "sup3r-s3cret-t0ken"}}"#)
        try folder.write("api.http", """
            # @name echo
            POST {{base}}/echo?t={{token}}
            Authorization: Bearer {{token}}
            X-Token: {{token}}

            {"token": "{{token}}"}

            ###
            # @name missing
            GET {{base}}/status/500
            """)
        // When run, human and JSON
        let human = try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url)
        let json = try await CourierCLI.run(["run", "api.http", "--env", "dev", "--json", "--fail-fast", "--name", "echo"],
                                         in: folder.url)
        // Then the secret appears nowhere, and the failing request makes the exit code 1
        #expect(human.status == 1)
        #expect(json.status == 0, "\(json.stderr)")
        for output in [human.stdout, human.stderr, json.stdout, json.stderr] {
            #expect(!output.contains("sup3r"), "\(output)")
        }
        #expect(json.stdout.contains("REDACTED"))
        #expect(human.stdout.contains("failed: status 500"))
        // And --show-secrets shows it
        let shown = try await CourierCLI.run(["run", "api.http", "--env", "dev", "--name", "echo", "--show-secrets"],
                                          in: folder.url)
        #expect(shown.stdout.contains("sup3r-s3cret-t0ken"))
    }

    @Test func courierRunUsageErrorsExitWithTwo() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.http", "# @name a\nGET http://127.0.0.1:9/\n")
        #expect(try await CourierCLI.run(["run"], in: folder.url).status == 2)
        #expect(try await CourierCLI.run(["run", "a.http", "--var", "novalue"], in: folder.url).status == 2)
        let unknown = try await CourierCLI.run(["run", "a.http", "--name", "b"], in: folder.url)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no request named 'b'; named requests: a"))
        let env = try await CourierCLI.run(["run", "a.http", "--env", "prod"], in: folder.url)
        #expect(env.stderr.contains("no environment 'prod'"))
    }

    @Test func aCurlCommandFromStdinImportsIntoAFileThatCourierRunExecutes() async throws {
        // Given a browser-style curl command aimed at the demo server
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let command = "curl '\(server.baseURL.absoluteString)/echo?x=1' \\\n  -H 'accept: application/json' \\\n"
            + "  -H 'content-type: application/json' \\\n  --data-raw '{\"a\":1}' \\\n  --compressed"
        // When imported twice into one file and run
        let first = try await CourierCLI.run(["import", "curl", "-", "-o", "imported.http", "--name", "first"],
                                          in: folder.url, input: command)
        let second = try await CourierCLI.run(["import", "curl", command, "-o", "imported.http", "--name", "second"],
                                           in: folder.url)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        let file = HTTPFile(path: "imported.http", text: try folder.read("imported.http"))
        #expect(file.requests.map(\.name) == ["first", "second"])
        let run = try await CourierCLI.run(["run", "imported.http", "--json"], in: folder.url)
        // Then both requests reach the server
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requestCount(path: "/echo") == 2)
    }

    @Test func aPostmanExportImportsIntoFilesThatCourierRunExecutes() async throws {
        // Given a Postman collection pointing at the demo server
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("demo.postman_collection.json", """
            {"info": {"name": "Demo", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "base", "value": "\(server.baseURL.absoluteString)"}],
             "item": [{"name": "Users", "item": [
                {"name": "List", "request": {"method": "GET", "url": "{{base}}/users?page=1"}},
                {"name": "Echo", "request": {"method": "POST", "url": "{{base}}/echo",
                 "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "1 2"}]}}}]}]}
            """)
        // When imported and run
        let imported = try await CourierCLI.run(["import", "postman", "demo.postman_collection.json", "-o", "out"],
                                             in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try await CourierCLI.run(["run", "out/Users.http"], in: folder.url)
        // Then the requests reach the server
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requestCount(path: "/users") == 1)
        #expect(server.requestCount(path: "/echo") == 1)
        // And importing again into the same folder refuses to overwrite
        let again = try await CourierCLI.run(["import", "postman", "demo.postman_collection.json", "-o", "out"],
                                          in: folder.url)
        #expect(again.status == 2)
    }

    @Test func exportPrintsACurlCommandWithSecretsRedacted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("http-client.private.env.json", #"{"dev": {"token": "hidden-value"}}"#)
        try folder.write("a.http", "# @name a\nGET https://x.test/a\nAuthorization: Bearer {{token}}\nX-Key: {{token}}\n")
        let redacted = try await CourierCLI.run(["export", "curl", "a.http", "--name", "a", "--env", "dev"], in: folder.url)
        #expect(redacted.status == 0, "\(redacted.stderr)")
        #expect(redacted.stdout == "curl \\\n  https://x.test/a \\\n  -H 'Authorization: Bearer REDACTED' \\\n"
                + "  -H 'X-Key: REDACTED' \\\n  --location\n")
        let shown = try await CourierCLI.run(["export", "curl", "a.http", "--env", "dev", "--show-secrets"], in: folder.url)
        #expect(shown.stdout.contains("-H 'X-Key: hidden-value'"))
    }
}

import CourierTestSupport
import Foundation
import Testing

/// `courier run COLLECTION.json` runs a Postman collection as newman does, through the importer: what the server
/// receives is what importing the collection and running the folder sends.
@Suite struct PostmanCollectionRunTests {
    static func collection(_ base: String) -> [String: Any] {
        PostmanExports.collection("Zeta API", variables: [("base", base)], items: [
            PostmanExports.item("login", "{{base}}/login", method: "POST",
                                tests: ["pm.collectionVariables.set('token', 'signed-in');",
                                        "pm.test('signed in', () => pm.response.to.have.status(200));"]),
            ["name": "Accounts", "item": [PostmanExports.item("accounts", "{{base}}/accounts?t={{token}}")]],
        ])
    }

    @Test func aCollectionRunsDirectlyAsItsImportRunsAndLeavesNothingBehind() async throws {
        // Given a Postman collection whose first request signs in for the one in its folder
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let temporary = folder.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let paths = try PostmanExports.write([("zeta.postman_collection", Self.collection(server.base))], in: folder)
        // When it is given to courier run, then imported and its folder run
        let direct = try await CourierCLI.run(["run", "zeta.postman_collection.json"], in: folder.url,
                                              environment: ["TMPDIR": temporary.path])
        let sentDirectly = server.requests.map(\.target)
        let out = folder.url.appendingPathComponent("out").path
        _ = try await CourierCLI.run(["import", "postman"] + paths + ["-o", out])
        let imported = try await CourierCLI.run(["run", out], in: folder.url)
        // Then the direct run sent what the imported folder sends, in the collection's order, and its test passed
        #expect(direct.status == 0, "\(direct.stdout)\(direct.stderr)")
        #expect(sentDirectly == ["/login", "/accounts?t=signed-in"])
        #expect(Array(server.requests.map(\.target).dropFirst(2)) == sentDirectly)
        #expect(direct.stdout.contains("✓ signed in"), "\(direct.stdout)")
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        // And it said how it ran the collection, and removed what it converted
        #expect(direct.stderr.contains("note: zeta.postman_collection.json is a Postman collection: running it as "
            + "'courier import postman zeta.postman_collection.json -o DIR' converts it"), "\(direct.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    @Test func itsEnvironmentExportBesideItComesAlongAndNameStillPicks() async throws {
        // Given a collection reading {{host}}, and the project's environment export beside it
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Shop", items: [
            PostmanExports.item("List", "{{host}}/items"), PostmanExports.item("Count", "{{host}}/count"),
        ])
        _ = try PostmanExports.write([("shop.postman_collection", collection),
                                      ("local.postman_environment", PostmanExports.environment("Local", [("host", server.base, false)]))],
                                     in: folder)
        // When one request of it is run by name
        let result = try await CourierCLI.run(["run", "shop.postman_collection.json", "--name", "Count"], in: folder.url)
        // Then it went to the environment's host, and the note names the environment file taken
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/count"])
        #expect(result.stderr.contains("shop.postman_collection.json local.postman_environment.json -o DIR"), "\(result.stderr)")
        #expect(result.stderr.contains("using 'Local', the only environment"), "\(result.stderr)")
    }
}

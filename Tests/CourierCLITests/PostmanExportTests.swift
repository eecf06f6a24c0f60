import CourierTestSupport
import Foundation
import Testing

/// `courier export postman`: a folder of `.http` files exported to a Postman v2.1 collection, imported back
/// with `courier import postman`, and both run against the same loopback server, which must receive the same
/// requests byte for byte.
@Suite(.serialized) struct PostmanExportTests {
    let folder: URL
    let server: CaptureServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-postman-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        server = try CaptureServer(issuing: "tok-9")
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent("api").appendingPathComponent(name))
    }

    @Test func aCollectionExportedToPostmanAndImportedBackSendsTheSameRequests() async throws {
        defer { cleanUp() }
        // Given two files: variables of the file and of a request, bearer and basic shorthands, JSON and form
        // bodies, a response script whose global a later request reads, a pre-request script
        try write("users.http", """
            @base = \(server.base)
            @version = v1

            ### List
            # @name list-users
            GET {{base}}/users?limit=2&q=a%20b
            Accept: application/json
            Authorization: Bearer {{token}}

            ### Create
            # @name create-user
            @nick = ada
            POST {{base}}/users
            Content-Type: application/json
            Authorization: Basic ada {{password}}

            {"name": "Ada", "nick": "{{nick}}", "version": "{{version}}"}

            > {%
                client.global.set("created", response.body.token);
            %}

            ### Me
            # @name me
            GET {{base}}/me
            X-Created: {{created}}

            """)
        try write("orders.http", """
            @base = \(server.base)

            ### Order
            # @name order
            < {%
                pm.variables.set("stamp", "s-1");
            %}
            POST {{base}}/orders
            Content-Type: application/x-www-form-urlencoded
            X-Stamp: {{stamp}}

            a=1&b=x%20y

            """)
        let variables = ["--var", "token=tok-1", "--var", "password=pw-1"]
        let state = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let original = try await CourierCLI.run(["run", folder.appendingPathComponent("api").path, "--all"] + variables,
                                                environment: state)
        #expect(original.status == 0, "\(original.stdout)\(original.stderr)")
        let sentByOriginal = server.requests
        #expect(sentByOriginal.count == 4)
        // When the folder is exported to Postman and imported back
        let collection = folder.appendingPathComponent("api.postman_collection.json")
        let exported = try await CourierCLI.run(["export", "postman", folder.appendingPathComponent("api").path,
                                                 "-o", collection.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: collection)) as? [String: Any]
        let info = json?["info"] as? [String: Any]
        #expect((info?["schema"] as? String)?.contains("v2.1.0") == true)
        #expect((json?["item"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["orders", "users"])
        let imported = folder.appendingPathComponent("imported")
        let back = try await CourierCLI.run(["import", "postman", collection.path, "-o", imported.path])
        #expect(back.status == 0, "\(back.stderr)")
        let rerun = try await CourierCLI.run(["run", imported.path, "--all"] + variables,
                                             environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state2").path])
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        // Then the server received the same requests: request lines, header lines and bodies
        let sentByImport = Array(server.requests.dropFirst(sentByOriginal.count))
        #expect(sentByImport.map(\.requestLine) == sentByOriginal.map(\.requestLine))
        for (before, after) in zip(sentByOriginal, sentByImport) {
            #expect(after.headerLines == before.headerLines, "\(before.requestLine)")
            #expect(after.body == before.body, "\(before.requestLine)")
        }
        #expect(sentByOriginal.first { $0.target == "/me" }?.header("X-Created") == "tok-9")
        #expect(sentByOriginal.first { $0.target == "/orders" }?.header("X-Stamp") == "s-1")
    }

    @Test func aSingleFileIsExportedToStandardOutputWithItsVariablesOnTheCollection() async throws {
        defer { cleanUp() }
        try write("one.http", "@base = http://example.test\n\n### Ping\n# @no-redirect\nGET {{base}}/ping\n")
        let exported = try await CourierCLI.run(["export", "postman", folder.appendingPathComponent("api/one.http").path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any]
        #expect((json?["variable"] as? [[String: String]])?.first == ["key": "base", "value": "http://example.test"])
        #expect(((json?["item"] as? [[String: Any]])?.first?["name"] as? String) == "Ping")
        #expect(exported.stderr.contains("tag @no-redirect not carried over"), "\(exported.stderr)")
    }
}

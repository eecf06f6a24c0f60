import CourierTestSupport
import Foundation
import Testing

/// `courier import insomnia` on a v4 export with a workspace, nested request groups, a base environment with
/// a public and a private sub-environment, template tags and resources Courier does not import; run with
/// `courier run` against a loopback server that keeps what it receives.
@Suite(.serialized) struct InsomniaImportTests {
    let folder: URL
    let server: CaptureServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-insomnia-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try CaptureServer()
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static let fixture = CourierCLI.packageRoot.appendingPathComponent("Tests/CourierCollectionsTests/Fixtures/insomnia/shop.json")

    func received(_ method: String, _ path: String) -> CaptureServer.Received? {
        server.requests.first { $0.method == method && $0.path == path }
    }

    @Test func anInsomniaExportRunsAsInsomniaSendsIt() async throws {
        defer { cleanUp() }
        // When the export is imported and run in its Local sub-environment
        let output = folder.appendingPathComponent("shop")
        let imported = try await CourierCLI.run(["import", "insomnia", Self.fixture.path, "-o", output.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let state = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let run = try await CourierCLI.run(["run", output.path, "--all", "--env", "Local", "--var", "base_url=\(server.base)"],
                                           environment: state)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // Then the files follow the workspace and its groups, and the environments became environment files
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == ["Shop API.http", "Users.http", "http-client.env.json", "http-client.private.env.json"])
        let environments = try JSONSerialization.jsonObject(
            with: Data(contentsOf: output.appendingPathComponent("http-client.env.json"))) as? [String: [String: Any]]
        #expect(environments?["$shared"]?["base_url"] as? String == "http://127.0.0.1:1")
        #expect(environments?["Local"]?["greeting"] as? String == "hello {{api.version}}")
        let secrets = try JSONSerialization.jsonObject(
            with: Data(contentsOf: output.appendingPathComponent("http-client.private.env.json"))) as? [String: [String: Any]]
        #expect(secrets?["Secrets"]?["token"] as? String == "t-secret")
        // And each request went out as Insomnia sends it: parameters encoded, folder variables, uuid tag,
        // nested environment values, bearer and basic authentication, the form encoded
        let list = received("GET", "/users")
        #expect(list?.query == "limit=5&q=a%20b%26c", "\(run.stdout)\(run.stderr)")
        #expect(list?.header("Authorization") == "Bearer t-local")
        #expect(list?.header("X-Greeting") == "hello v1")
        #expect(UUID(uuidString: list?.header("X-Request-Id") ?? "") != nil)
        let create = received("POST", "/users")
        #expect(create?.bodyText == "{\"name\": \"Ada\", \"version\": \"v1\", \"note\": \"{{ not a var }}\"}")
        #expect(create?.header("X-Off") == nil)
        let login = received("POST", "/login")
        #expect(login?.bodyText == "user=ada&pass=p%26w")
        #expect(login?.header("Authorization") == "Basic " + Data("ada:t-local".utf8).base64EncodedString())
        #expect(received("GET", "/health") != nil)
        // And what was not imported is named by its place in the export
        #expect(imported.stderr.contains("note: resources[10]: websocket_request 'Live' not converted"), "\(imported.stderr)")
        #expect(imported.stderr.contains("note: resources[11]: no _id or _type; left out"))
        #expect(imported.stderr.contains("note: resources[12]: its parent fld_gone is not in the export; left out"))
        #expect(imported.stderr.contains("note: resources[9].headers: {% response"))
    }

    @Test func anExportThatIsNotJSONIsReportedAtItsLine() async throws {
        defer { cleanUp() }
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\n  \"resources\": [\n    {\"_id\": \"wrk\",}\n  ]\n}".utf8).write(to: broken)
        let imported = try await CourierCLI.run(["import", "insomnia", broken.path, "-o", folder.appendingPathComponent("o").path])
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("cannot import \(broken.path): line 3, column"), "\(imported.stderr)")
    }
}

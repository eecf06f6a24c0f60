import CourierTestSupport
import Foundation
import Testing

/// `courier import bruno` on a collection folder: `collection.bru` and `folder.bru` passing headers and auth
/// down, path parameters, bodies, post-response variables and assertions run by Courier's script layer,
/// environments with secret names, and a broken `.bru` file that does not stop the rest.
@Suite(.serialized) struct BrunoImportTests {
    let folder: URL
    let server: CaptureServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bruno-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try CaptureServer()
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static let fixture = CourierCLI.packageRoot.appendingPathComponent("Tests/CourierCollectionsTests/Fixtures/bruno/Shop")

    func received(_ method: String, _ path: String) -> CaptureServer.Received? {
        server.requests.first { $0.method == method && $0.path == path }
    }

    @Test func aBrunoCollectionRunsAsBrunoSendsIt() async throws {
        defer { cleanUp() }
        // When the collection is imported and run in its Local environment with the secret given
        let output = folder.appendingPathComponent("shop")
        let imported = try await CourierCLI.run(["import", "bruno", Self.fixture.path, "-o", output.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try await CourierCLI.run(["run", output.path, "--all", "--env", "Local", "--var", "baseUrl=\(server.base)",
                                            "--var", "token=tok-b"],
                                           environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                                                         "HOME": "/home/bruno-test"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // Then one file per folder, and the environment with its secret name to fill in
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == ["Shop.http", "http-client.env.json", "http-client.private.env.json", "users.http"])
        let secrets = try JSONSerialization.jsonObject(
            with: Data(contentsOf: output.appendingPathComponent("http-client.private.env.json"))) as? [String: [String: String]]
        #expect(secrets?["Local"]?["token"] == "")
        #expect(imported.stderr.contains("fill in token"))
        // And the requests went out as Bruno sends them: inherited headers and bearer auth, the path parameter,
        // the form, basic auth, and the variable a post-response line set read by the next request
        let get = received("GET", "/users/42")
        #expect(get?.query == "fields=name", "\(run.stdout)\(run.stderr)")
        #expect(get?.header("X-Client") == "courier-test" && get?.header("X-Folder") == "users")
        #expect(get?.header("Authorization") == "Bearer tok-b")
        #expect(received("GET", "/users")?.header("X-Off") == nil)
        let form = received("POST", "/form")
        #expect(form?.bodyText == "a=1&b=x%20y")
        #expect(form?.header("Authorization") == nil)
        let create = received("POST", "/users")
        #expect(create?.header("Authorization") == "Basic " + Data("ada:tok-b".utf8).base64EncodedString())
        let body = try JSONSerialization.jsonObject(with: create?.body ?? Data()) as? [String: String]
        #expect(body == ["name": "Ada", "issued": "t0k", "home": "/home/bruno-test"])
        // And the assertions ran as tests
        #expect(run.stdout.contains("✓ res.status: eq 200") && run.stdout.contains("✓ res.body.token: eq t0k"))
        // And what was not converted is named at its file and line; the broken file did not stop the rest
        #expect(imported.stderr.contains("note: broken.bru:5: block 'get' has no closing '}'; file left out"),
                "\(imported.stderr)")
        #expect(imported.stderr.contains("note: users/get.bru:25: script:pre-request uses Bruno's req/res/bru objects"))
        #expect(imported.stderr.contains("note: users/list.bru:25: assert 'res.headers.x: isDefined' not converted"))
    }

    @Test func aFolderThatIsNotThereIsAClearError() async throws {
        defer { cleanUp() }
        let imported = try await CourierCLI.run(["import", "bruno", folder.appendingPathComponent("nope").path])
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("not a folder"), "\(imported.stderr)")
    }
}

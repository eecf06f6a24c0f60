import CourierTestSupport
import Foundation
import Testing

/// `courier import postman` with environment and globals exports: what the files hold, and what a server
/// receives when the imported collection runs with the environment.
@Suite("Postman environments and globals imported and run")
struct PostmanEnvironmentImportTests {
    @Test func aCollectionWithItsEnvironmentAndGlobalsRunsAgainstTheEnvironmentsValues() async throws {
        // Given a collection whose {{baseUrl}} is a placeholder collection variable, an environment holding the
        // real baseUrl and a secret-typed key, and globals
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Shop", variables: [("baseUrl", "http://placeholder.invalid"),
                                                                       ("page", "2")], items: [
            PostmanExports.item("list", "{{baseUrl}}/items?page={{page}}&who={{who}}",
                                headers: [("X-Key", "{{apiKey}}"), ("X-Home", "{{home}}"), ("X-Token", "{{token}}")]),
        ])
        let environment = PostmanExports.environment("Staging", [
            ("baseUrl", server.base, false), ("apiKey", "k3y-of-staging", true), ("token", "tok-named-secret", false),
            ("home", "{{$processEnv HOME}}", false),
        ])
        let globals = PostmanExports.globals([("who", "ada"), ("baseUrl", "http://global.invalid")])
        // When all three are imported in one call and the file runs with --env Staging
        let (imported, run) = try await PostmanExports.importAndRun(
            [("shop.postman_collection", collection), ("staging.postman_environment", environment),
             ("workspace.postman_globals", globals)], in: folder, file: "Shop.http", arguments: ["--env", "Staging"])
        // Then the server got the environment's URL and values, the globals' value and the collection's own
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.requestLine == "GET /items?page=2&who=ada HTTP/1.1")
        #expect(received.header("X-Key") == "k3y-of-staging")
        #expect(received.header("X-Token") == "tok-named-secret")
        // A {{…}} Postman does not mean as a variable is sent as the text it is, never the process environment
        #expect(received.header("X-Home") == "{{$processEnv HOME}}")
        // The secrets are in the private file only (0600), never printed
        let shared = try folder.read("out/http-client.env.json")
        let secret = try folder.read("out/http-client.private.env.json")
        #expect(!shared.contains("k3y-of-staging") && !shared.contains("tok-named-secret"), "\(shared)")
        #expect(secret.contains("k3y-of-staging") && secret.contains("tok-named-secret"), "\(secret)")
        let mode = try FileManager.default.attributesOfItem(
            atPath: folder.url.appendingPathComponent("out/http-client.private.env.json").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!imported.stderr.contains("k3y") && !run.stdout.contains("k3y-of-staging"), "\(imported.stderr)")
        #expect(imported.stderr.contains("environment 'Staging': 4 values, 2 secret"), "\(imported.stderr)")
        // Globals are $shared; the collection's baseUrl went there too, below the environment, above globals
        #expect(shared.contains("\"$shared\""), "\(shared)")
        #expect(!shared.contains("global.invalid") && shared.contains("placeholder.invalid"), "\(shared)")
        #expect(try !folder.read("out/Shop.http").contains("@baseUrl"))
        #expect(try folder.read("out/Shop.http").contains("@page = 2"))
    }

    @Test func anEnvironmentImportedLaterJoinsTheFolderAndOneOfTheSameNameIsRefused() async throws {
        // Given a folder that already has an imported collection and environment
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Api", items: [PostmanExports.item("ping", "{{base}}/ping")])
        let paths = try PostmanExports.write([
            ("api", collection), ("dev", PostmanExports.environment("Dev", [("base", "http://dev.invalid", false)])),
            ("prod", PostmanExports.environment("Prod", [("base", server.base, false)])),
            ("prod2", PostmanExports.environment("Prod", [("base", "http://other.invalid", false)])),
        ], in: folder)
        let out = folder.url.appendingPathComponent("out").path
        let first = try await CourierCLI.run(["import", "postman", paths[0], paths[1], "-o", out])
        // When another environment is imported into it, then one named like an existing one
        let second = try await CourierCLI.run(["import", "postman", paths[2], "-o", out])
        let before = try folder.read("out/http-client.env.json")
        let third = try await CourierCLI.run(["import", "postman", paths[3], "-o", out])
        // Then the second joins the first, the third is refused and changes nothing
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(third.status != 0)
        #expect(third.stderr.contains("already has an environment 'Prod'"), "\(third.stderr)")
        #expect(try folder.read("out/http-client.env.json") == before)
        let run = try await CourierCLI.run(["run", out + "/Api.http", "--env", "Prod"], in: folder.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map(\.requestLine) == ["GET /ping HTTP/1.1"])
    }

    @Test func aFileThatIsNoPostmanExportIsNamedAndNothingIsWritten() async throws {
        let folder = try TemporaryFolder()
        let paths = try PostmanExports.write([
            ("api", PostmanExports.collection("Api", items: [PostmanExports.item("ping", "http://x.invalid/")])),
            ("other", ["hello": "world"]),
        ], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let result = try await CourierCLI.run(["import", "postman", paths[0], paths[1], "-o", out.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("other.json") && result.stderr.contains("environment or globals export"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("Api.http").path))
    }
}

import CourierTestSupport
import Foundation
import Testing

/// A Postman collection's credentials (variables named or marked as secrets, a bearer token spelled out in its
/// auth) are imported into the private environment file, never into the `.http` files, and still sent.
@Suite("Postman credentials on import")
struct PostmanImportSecretsTests {
    @Test func secretVariablesAndAuthCredentialsGoToThePrivateFileAndAreStillSent() async throws {
        // Given a collection with a secret-named variable, one Postman marks secret, and a literal bearer token
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("c.json", """
            {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "baseUrl", "value": "\(server.base)"}, {"key": "apiKey", "value": "sk_live_abc123"},
                          {"key": "tenantSeal", "value": "se4l-9", "type": "secret"}],
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "tok-xyz-789", "type": "string"}]},
             "item": [{"name": "List", "request": {"method": "GET", "url": "{{baseUrl}}/items",
                       "header": [{"key": "X-Api-Key", "value": "{{apiKey}}"}, {"key": "X-Seal", "value": "{{tenantSeal}}"}]}}]}
            """)
        // When it is imported
        let imported = try await CourierCLI.run(["import", "postman", "c.json", "-o", "out"], in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then no .http file holds a credential, the private file holds them all, and the import says so
        let out = folder.url.appendingPathComponent("out")
        let http = try String(contentsOf: out.appendingPathComponent("Shop.http"), encoding: .utf8)
        for secret in ["sk_live_abc123", "se4l-9", "tok-xyz-789"] {
            #expect(!http.contains(secret), "\(http)")
            #expect(!imported.stdout.contains(secret) && !imported.stderr.contains(secret))
        }
        #expect(http.contains("Authorization: Bearer {{bearer-token}}"), "\(http)")
        let privateFile = try String(contentsOf: out.appendingPathComponent("http-client.private.env.json"), encoding: .utf8)
        for secret in ["sk_live_abc123", "se4l-9", "tok-xyz-789"] { #expect(privateFile.contains(secret), "\(privateFile)") }
        #expect(imported.stderr.contains("hold credentials"), "\(imported.stderr)")
        // And a run sends them
        let run = try await CourierCLI.run(["run", "Shop.http"], in: out)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let sent = try #require(server.requests.first)
        #expect(sent.header("Authorization") == "Bearer tok-xyz-789")
        #expect(sent.header("X-Api-Key") == "sk_live_abc123")
        #expect(sent.header("X-Seal") == "se4l-9")
    }
}

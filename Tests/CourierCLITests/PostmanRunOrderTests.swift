import CourierTestSupport
import Foundation
import Testing

/// An imported collection runs in the order Postman's runner takes it: `courier run` on the import's folder
/// takes its files in name order, so the files are numbered in the collection's order.
@Suite struct PostmanRunOrderTests {
    @Test func aFolderRunOfAnImportedCollectionSignsInFirstAsTheCollectionDoes() async throws {
        // Given a collection whose first request, outside any folder, signs in, and whose folders
        // ("Accounts", "Billing") use the token it stores
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = server.base
        let collection = PostmanExports.collection("Zeta API", variables: [("base", base)], items: [
            PostmanExports.item("login", "{{base}}/login", method: "POST",
                                tests: ["pm.collectionVariables.set('token', 'signed-in');"]),
            ["name": "Accounts", "item": [PostmanExports.item("accounts", "{{base}}/accounts?t={{token}}")]],
            ["name": "Billing", "item": [PostmanExports.item("invoices", "{{base}}/invoices?t={{token}}")]],
        ])
        let paths = try PostmanExports.write([("zeta", collection)], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let imported = try await CourierCLI.run(["import", "postman"] + paths + ["-o", out.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the whole imported folder is run
        let run = try await CourierCLI.run(["run", out.path], in: folder.url)
        // Then the files are numbered in the collection's order and the server saw the sign-in first
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".http") }.sorted()
        #expect(names == ["01 Zeta API.http", "02 Accounts.http", "03 Billing.http"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map(\.target) == ["/login", "/accounts?t=signed-in", "/invoices?t=signed-in"])
    }
}

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

    @Test func setNextRequestGoesOnInAnotherFolderAndNullEndsTheWholeRun() async throws {
        // Given a collection whose first folder sends the run on to a request of the third, which ends it
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = server.base
        let collection = PostmanExports.collection("Jumps", variables: [("base", base)], items: [
            ["name": "Start", "item": [PostmanExports.item("first", "{{base}}/first",
                                                           tests: ["pm.execution.setNextRequest('target');"]),
                                       PostmanExports.item("not run", "{{base}}/skipped-1")]],
            ["name": "Middle", "item": [PostmanExports.item("passed over", "{{base}}/skipped-2")]],
            ["name": "End", "item": [PostmanExports.item("before", "{{base}}/skipped-3"),
                                     PostmanExports.item("target", "{{base}}/target",
                                                         tests: ["postman.setNextRequest('last');"]),
                                     PostmanExports.item("between", "{{base}}/skipped-4"),
                                     PostmanExports.item("last", "{{base}}/last",
                                                         tests: ["pm.execution.setNextRequest(null);"])]],
            ["name": "After", "item": [PostmanExports.item("never", "{{base}}/skipped-5")]],
        ])
        let paths = try PostmanExports.write([("jumps", collection)], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let imported = try await CourierCLI.run(["import", "postman"] + paths + ["-o", out.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the imported folder is run
        let run = try await CourierCLI.run(["run", out.path], in: folder.url)
        // Then the run went from the first folder's file to the named request in another, and stopped at null
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map(\.target) == ["/first", "/target", "/last"], "\(run.stdout)\(run.stderr)")
    }

    @Test func setNextRequestUnderJobsIsNotFollowedAndSaysItNeedsARunWithoutJobs() async throws {
        // Given a collection whose first request sends the run to a request of another folder
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Side", variables: [("base", server.base)], items: [
            ["name": "One", "item": [PostmanExports.item("first", "{{base}}/first",
                                                         tests: ["pm.execution.setNextRequest('target');"]),
                                     PostmanExports.item("rest", "{{base}}/rest")]],
            ["name": "Two", "item": [PostmanExports.item("target", "{{base}}/target")]],
        ])
        let paths = try PostmanExports.write([("side", collection)], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let imported = try await CourierCLI.run(["import", "postman"] + paths + ["-o", out.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the folder runs with requests side by side
        let run = try await CourierCLI.run(["run", out.path, "--jobs", "4"], in: folder.url)
        // Then every request ran once, and the jump was reported as not followed, saying what to do
        let output = run.stdout + run.stderr
        #expect(output.contains("postman.setNextRequest('target') in 'first': not followed with --jobs, where "
                                + "requests run side by side; run without --jobs to follow it"), "\(output)")
        #expect(server.requests.map(\.target).sorted() == ["/first", "/rest", "/target"], "\(output)")
    }
}

import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

@Suite("The collections shipped in Collections/")
struct ShippedCollectionsTests {
    @Test func everyShippedFileLoadsWithoutErrorsAndEveryRequestResolves() throws {
        // Given the repository's Collections folder
        let folder = DemoCollection.root.appendingPathComponent("Collections")
        let collection = CollectionLoader.load(folder.path)
        // Then it loads cleanly
        #expect(collection.diagnostics.isEmpty, "\(collection.diagnostics)")
        #expect(collection.files.map(\.file.path) == ["demo.http", "examples/form-upload.http",
                                                      "examples/github-rest.http", "examples/graphql.http"])
        // And every request not waiting on an earlier response resolves
        for loaded in collection.files {
            let environments = try EnvironmentSet.discover(near: loaded.url, root: folder)
            let name = loaded.file.path == "demo.http" ? "demo" : "github"
            let context = VariableContext(overrides: ["token": "t"], environment: try environments.environment(named: name),
                                          processEnvironment: [:])
            let resolver = Resolver(file: loaded.file, baseFolder: loaded.url.deletingLastPathComponent(), context: context)
            for request in loaded.file.requests where CollectionRunner.dependencies(of: request).isEmpty {
                #expect(throws: Never.self, "\(loaded.file.path) \(request.displayName)") {
                    _ = try resolver.resolve(request)
                }
            }
        }
    }

    @Test func theDemoCollectionCoversEveryDemoEndpoint() throws {
        let file = HTTPFile(path: "demo.http", text: try String(contentsOf: DemoCollection.file, encoding: .utf8))
        let urls = (file.requests.map(\.url) + file.fileVariables.map(\.value)).joined(separator: "\n")
        for path in ["/users", "/search", "/slow", "/flaky", "/rate-limited", "/status/", "/auth/login", "/auth/refresh",
                     "/me", "/large", "/etag", "/last-modified", "/echo", "/events", "/ndjson", "/cache/changing",
                     "/cache/vary", "/cache/no-store", "/cache/no-cache", "/cache/heuristic", "/ws/echo", "/ws/ticker"] {
            #expect(urls.contains(path), "\(path)")
        }
        #expect(file.requests.contains { $0.headers["Idempotency-Key"] != nil && $0.method == .post })
        #expect(file.requests.filter { $0.kind == .websocket }.flatMap(\.messages).contains { $0.subscribe })
    }
}

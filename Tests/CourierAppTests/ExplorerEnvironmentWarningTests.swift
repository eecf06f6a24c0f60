import CourierApp
import Foundation
import Testing

/// What the environment files ask that Courier does not do reaches the explorer's problems (`!`) and its
/// first notice, as `courier run` and `courier check` print it: httpyac's configuration that is code, and a
/// private environment file that cannot be read.
@Suite struct ExplorerEnvironmentWarningTests {
    @Test func configurationWarningsAndAnUnreadablePrivateFileAreListedWithTheProblems() throws {
        // Given a folder whose httpyac configuration is a function that computes, and an encrypted private file
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-warn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("module.exports = () => build();\n".utf8).write(to: folder.appendingPathComponent(".httpyac.js"))
        try Data("\0GITCRYPT\0\u{1}\u{2}".utf8).write(to: folder.appendingPathComponent("http-client.private.env.json"))
        try Data("GET http://127.0.0.1:9/x\n".utf8).write(to: folder.appendingPathComponent("api.http"))
        // When the explorer loads it
        let (collection, problems) = CollectionStore().load(folder.path)
        // Then its requests are there, and both warnings are listed, naming their files
        #expect(collection.files.count == 1)
        #expect(problems.contains { $0.contains(".httpyac.js:1: warning: httpyac's module.exports") }, "\(problems)")
        #expect(problems.contains {
            $0.contains("http-client.private.env.json:1: warning: not read: it is encrypted with git-crypt")
        }, "\(problems)")
    }
}

import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import Foundation
import Testing

/// In the explorer, a token a response handler stores in a global named like a secret is masked in history:
/// in the entry of the response it came from, and in every later exchange that sends it or has it echoed.
@Suite("secret script globals in the explorer", .serialized)
struct ExplorerSecretGlobalTests {
    @Test func aTokenStoredInASecretGlobalIsInNoHistoryFile() async throws {
        // Given the demo server, a history folder, and a file whose login handler stores the issued token
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("globals-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let historyFolder = folder.appendingPathComponent("history", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("auth.http")
        try Data("""
            # @name login
            POST {{base}}/auth/login

            > {% client.global.set("accessToken", response.body.access_token); %}

            ###
            # @name echo
            POST {{base}}/echo
            Authorization: Bearer {{accessToken}}
            Content-Type: text/plain

            sent along: {{accessToken}}

            """.utf8).write(to: file)
        let queue = ActionQueue {}
        let log = ActionLog(queue)
        let runner = EffectRunner(
            configuration: .init(transport: CurlTransport(), themeFolders: [], historyDirectory: historyFolder),
            queue: queue, store: CollectionStore(overrides: ["base": server.baseURL.absoluteString.trimmingTrailingSlash]))
        defer { runner.perform([.cancelSend]) }
        runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await log.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })

        // When login is sent, then the request that sends the token to a server that echoes it
        for (generation, index) in [(1, 0), (2, 1)] {
            let ref = RequestRef(file: collection.files[0].path, index: index)
            runner.perform([.send(generation: generation, job: SendJob(ref: ref, draft: try #require(collection.request(ref)),
                                                                       environment: nil))])
            let recorded = await log.waitFor {
                if case .historyRecorded(generation, _, _) = $0 { generation } else { nil }
            }
            #expect(recorded == generation, "history of request \(index)")
        }

        // Then the token went on the wire
        let sent = try #require(server.log.first { $0.path == "/echo" }?.header("Authorization"))
        let token = String(sent.dropFirst("Bearer ".count))
        #expect(token.count >= 8, "\(sent)")

        // And no history file holds it, though both responses carried it in their bodies
        let files = FileManager.default.enumerator(at: historyFolder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        #expect(files.count >= 2, "\(files)")
        for url in files {
            let data = (try? Data(contentsOf: url)) ?? Data()
            #expect(data.range(of: Data(token.utf8)) == nil, "the token is in \(url.lastPathComponent)")
        }
    }
}

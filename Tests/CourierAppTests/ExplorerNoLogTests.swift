import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import Foundation
import Testing

/// JetBrains' `# @no-log`: the explorer sends the request but keeps neither it nor its response in history.
@Suite("# @no-log in the explorer")
struct ExplorerNoLogTests {
    @Test func aNoLogRequestIsSentButLeavesNoHistoryEntryWhileTheNextOneIsRecorded() async throws {
        // Given the demo server, a history folder, and a file whose first request is marked @no-log
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nolog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let historyFolder = folder.appendingPathComponent("history", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("secret.http")
        try Data("""
            # @name reveal
            # @no-log
            POST {{base}}/echo
            Content-Type: text/plain

            the-unlogged-secret

            ###
            # @name plain
            POST {{base}}/echo
            Content-Type: text/plain

            kept-in-history

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
        // When the @no-log request is sent and its response arrives
        let reveal = RequestRef(file: collection.files[0].path, index: 0)
        runner.perform([.send(generation: 1, job: SendJob(ref: reveal, draft: try #require(collection.request(reveal)),
                                                          environment: nil))])
        let answered = await log.waitFor { if case .responsePaneReady(1, _) = $0 { true } else { nil } }
        #expect(answered == true)
        // And then the plain one, whose recording is awaited
        let plain = RequestRef(file: collection.files[0].path, index: 1)
        runner.perform([.send(generation: 2, job: SendJob(ref: plain, draft: try #require(collection.request(plain)),
                                                          environment: nil))])
        let recorded = await log.waitFor { if case .historyRecorded(2, _, _) = $0 { true } else { nil } }
        #expect(recorded == true)
        // Then both went on the wire, but no history file holds the first request or its echoed response
        #expect(server.log.filter { $0.path == "/echo" }.count == 2)
        let files = FileManager.default.enumerator(at: historyFolder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        let contents = files.map { (try? Data(contentsOf: $0)) ?? Data() }
        #expect(contents.contains { $0.range(of: Data("kept-in-history".utf8)) != nil }, "\(files)")
        for (url, data) in zip(files, contents) {
            #expect(data.range(of: Data("the-unlogged-secret".utf8)) == nil, "in \(url.lastPathComponent)")
            #expect(data.range(of: Data("reveal".utf8)) == nil, "in \(url.lastPathComponent)")
        }
    }
}

import CourierApp
import CourierDemo
import CourierHTTP
import Foundation
import Testing

/// The explorer's temporary body files: a large response spills to disk, and the file is gone as soon
/// as the viewer has mapped it, so sending again and again (and quitting) leaves nothing behind.
@Suite("explorer temporary body files", .serialized)
struct TemporaryBodyFileExplorerTests {
    func bodyFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("courier-body-") }
    }

    @Test(arguments: [false, true])
    func sendingALargeResponseThreeTimesLeavesNoBodyFileAndTheViewerStillReadsIt(withHistory: Bool) async throws {
        // Given the explorer's runner spilling bodies over 64 KB into a folder of its own
        let server = try DemoServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let file = folder.appendingPathComponent("t.http")
        try Data("### large\nGET \(server.baseURL.appendingPathComponent("large").absoluteString)?mb=2\n".utf8).write(to: file)
        let queue = ActionQueue {}
        let transport = CurlTransport(configuration: .init(spillThreshold: 64 << 10, temporaryDirectory: folder))
        let runner = EffectRunner(configuration: .init(transport: transport, themeFolders: [],
                                                       historyDirectory: withHistory ? folder.appendingPathComponent("history") : nil),
                                  queue: queue)
        defer { runner.shutdown() }
        let log = ActionLog(queue)
        func waitFor<T>(_ match: (Action) -> T?) async -> T? { await log.waitFor(polls: 2000, match) }
        runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } })
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        let draft = try #require(collection.request(ref))

        // When the large request is sent three times
        var panes: [ResponsePaneState] = []
        for generation in 1...3 {
            runner.perform([.send(generation: generation, job: SendJob(ref: ref, draft: draft, environment: nil))])
            let pane = await waitFor { if case .responsePaneReady(generation, let pane) = $0 { pane } else { nil } }
            guard let pane else {
                Issue.record("no viewer for send \(generation): \(log.actions().map { "\($0)".prefix(200) })")
                return
            }
            panes.append(pane)
            if withHistory { _ = await waitFor { if case .historyRecorded(generation, _, _) = $0 { true } else { nil } } }
        }
        // Then no temporary body file is left in the folder (the history's release runs just after it posts)
        var left = bodyFiles(in: folder)
        for _ in 0..<500 where !left.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            left = bodyFiles(in: folder)
        }
        #expect(left.isEmpty, "left behind: \(left)")
        // And each viewer still reads its whole body from the removed file's mapping
        for pane in panes { #expect(pane.body.bytes.count > 2_000_000) }
    }
}

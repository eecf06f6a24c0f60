@testable import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// A JetBrains run block (`run #name`, `run ./file.http`) in the explorer: listed like a request, and sending
/// it runs what it names through the explorer's client.
@Suite("run blocks in the explorer")
struct ExplorerRunBlockTests {
    @Test func sendingARunBlockRunsTheImportedRequestItNamesAndShowsItsAnswer() async throws {
        // Given the demo server, and a file importing another whose request the last block runs
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runblock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lib"), withIntermediateDirectories: true)
        try Data("@greeting = hello\n\n### shout\nPOST {{base}}/echo\nContent-Type: text/plain\n\n{{greeting}} from lib\n"
            .utf8).write(to: folder.appendingPathComponent("lib/shared.http"))
        let file = folder.appendingPathComponent("main.http")
        try Data("import ./lib/shared.http\n\n### ping\nGET {{base}}/echo\n\n### loud\nrun #shout (@greeting=HEY)\n"
            .utf8).write(to: file)
        let queue = ActionQueue {}
        let log = ActionLog(queue)
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue,
                                  store: CollectionStore(overrides: ["base": server.baseURL.absoluteString.trimmingTrailingSlash]))
        defer { runner.perform([.cancelSend]) }
        runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await log.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })

        // Then the tree lists the block as a RUN request, and its editor shows what it runs
        var state = AppState(size: Size(width: 100, height: 24), collectionPath: file.path, environment: nil)
        _ = update(&state, .collectionLoaded(collection))
        _ = state.open(RequestRef(file: collection.files[0].path, index: 1), force: true)
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(screen.contains("RUN") && screen.contains("loud"), "\(screen)")
        #expect(screen.contains("RUN #shout (@greeting=HEY)"), "\(screen)")

        // When the block is sent
        let ref = RequestRef(file: collection.files[0].path, index: 1)
        let draft = try #require(collection.request(ref))
        #expect(draft.runs == ["run #shout (@greeting=HEY)"])
        runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: draft, environment: nil))])
        let pane = try #require(await log.waitFor {
            if case .responsePaneReady(1, let pane) = $0 { pane } else { nil }
        })
        // Then the imported request went out with the run line's value, and the pane names what ran
        let echoed = try #require(server.log.first { $0.path == "/echo" })
        #expect(server.log.filter { $0.path == "/echo" }.count == 1)
        #expect(String(decoding: echoed.bodyPrefix, as: UTF8.self) == "HEY from lib")
        #expect(pane.info.tests == "ran shout 200", "\(String(describing: pane.info.tests))")
        #expect(!pane.info.testsFailed)
    }

    @Test func aRunBlockIsNotSavedFromTheEditor() {
        var users = Fixtures.usersFile
        users.requests[0].runs = ["run #login"]
        var state = AppState(size: Size(width: 100, height: 30), collectionPath: "Collections", environment: "dev")
        _ = update(&state, .collectionLoaded(Collection(root: "Collections", files: [users],
                                                        environments: Fixtures.collection.environments)))
        state.press(.char("2"))
        state.editor.url.insert("x")
        #expect(state.save().isEmpty)
        #expect(state.status?.text.contains("is edited in its file") == true)
    }

    @Test func aMissingImportIsAProblemAtItsLineAndTheFileStillLoads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("import ./gone.http\n\nGET http://127.0.0.1:1/a\n".utf8).write(to: folder.appendingPathComponent("m.http"))
        let (collection, problems) = CollectionStore().load(folder.path)
        #expect(collection.files.first?.requests.count == 1)
        #expect(problems.contains("m.http:1: cannot import './gone.http': no such file"), "\(problems)")
    }
}

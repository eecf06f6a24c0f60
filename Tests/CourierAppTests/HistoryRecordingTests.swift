import CourierApp
import CourierBody
import CourierDemo
import CourierHTTP
import CourierHistory
import Foundation
import Testing

@Suite("the effect runner records responses into history", .serialized)
struct HistoryRecordingTests {
    static let token = "s3cr3t-token-4711"

    @Test func aSentRequestIsKeptInHistoryWithItsSecretsRedacted() async throws {
        // Given a request whose token comes from the private environment, and a runner keeping history in a temp folder
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let base = server.baseURL.absoluteString.trimmingTrailingSlash
        try Data(#"{"dev": {"base": "\#(base)"}}"#.utf8).write(to: folder.appendingPathComponent("http-client.env.json"))
        try Data(#"{"dev": {"token": "\#(Self.token)"}}"#.utf8)
            .write(to: folder.appendingPathComponent("http-client.private.env.json"))
        let text = """
            ### echo
            # @name whoami
            GET {{base}}/echo?sig={{token}}
            Authorization: Bearer {{token}}
            X-Trace: t1

            """
        let file = folder.appendingPathComponent("t.http")
        try Data(text.utf8).write(to: file)
        let historyFolder = folder.appendingPathComponent("state/history")
        let queue = ActionQueue {}
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                                       historyDirectory: historyFolder, clipboard: { _ in }),
                                  queue: queue)
        defer { runner.shutdown() }
        let log = ActionLog(queue)
        func waitFor<T>(_ match: (Action) -> T?) async -> T? { await log.waitFor(match) }
        runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } })
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        let draft = try #require(collection.request(ref))
        // When sending it
        runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: draft, environment: "dev"))])
        // Then the runner reports it recorded under its name, with a latency
        let recorded = await waitFor { action -> (String, LatencyStats?)? in
            if case .historyRecorded(1, let key, let latency) = action { (key, latency) } else { nil }
        }
        let key = "whoami (\(ref.file))"
        #expect(recorded?.0 == key)
        #expect(recorded?.1?.durations.count == 1)
        // And the store holds the entry with the Authorization value and the token redacted everywhere
        let store = HistoryStore(directory: historyFolder)
        let entry = try #require(try store.list(requestKey: key).first)
        #expect(entry.request.template?.url == "{{base}}/echo?sig={{token}}")
        #expect(entry.request.template?.headers.first { $0.name == "Authorization" }?.value == "Bearer {{token}}")
        #expect(entry.response?.status == 200)
        #expect(entry.request.headers.first { $0.name == "Authorization" }?.value.hasSuffix(Redactor.mask) == true)
        #expect(entry.request.headers.first { $0.name == "X-Trace" }?.value == "t1")
        #expect(!entry.request.url.contains(Self.token))
        #expect(entry.request.url.contains("/echo"))
        let body = String(decoding: try store.body(id: entry.id), as: UTF8.self)
        #expect(body.contains("t1"), "the echo body was kept: \(body)")
        #expect(!body.contains(Self.token))
        let files = try FileManager.default.contentsOfDirectory(atPath: historyFolder.path)
        for name in files {
            let contents = try String(contentsOf: historyFolder.appendingPathComponent(name), encoding: .utf8)
            #expect(!contents.contains(Self.token), "\(name) holds the token")
        }
    }

    @Test func historyKeepsTwoFilesRequestsOfTheSameNameApartAndRestoresTheTemplate() async throws {
        // Given two files each holding a request named "me", and a runner keeping history in a temp folder
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let base = server.baseURL.absoluteString.trimmingTrailingSlash
        try Data(#"{"dev": {"base": "\#(base)"}}"#.utf8).write(to: folder.appendingPathComponent("http-client.env.json"))
        try Data("### me\nGET {{base}}/echo?from=a\n".utf8).write(to: folder.appendingPathComponent("a.http"))
        try Data("### me\nGET {{base}}/echo?from=b\n".utf8).write(to: folder.appendingPathComponent("b.http"))
        let historyFolder = folder.appendingPathComponent("state/history")
        let queue = ActionQueue {}
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                                       historyDirectory: historyFolder, clipboard: { _ in }),
                                  queue: queue)
        defer { runner.shutdown() }
        let log = ActionLog(queue)
        func waitFor<T>(_ match: (Action) -> T?) async -> T? { await log.waitFor(match) }
        runner.perform([.loadCollection(path: folder.path)])
        let collection = try #require(await waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } })
        #expect(collection.files.count == 2)
        // When each is sent (a's twice)
        var generation = 0
        for (fileIndex, times) in [(0, 2), (1, 1)] {
            for _ in 0..<times {
                generation += 1
                let ref = RequestRef(file: collection.files[fileIndex].path, index: 0)
                let draft = try #require(collection.request(ref))
                runner.perform([.send(generation: generation, job: SendJob(ref: ref, draft: draft, environment: "dev"))])
                let expected = generation
                _ = await waitFor { if case .historyRecorded(expected, _, _) = $0 { true } else { nil } }
            }
        }
        // Then each file's "me" has its own history
        let store = HistoryStore(directory: historyFolder)
        let aKey = "me (\(collection.files[0].path))", bKey = "me (\(collection.files[1].path))"
        #expect(try store.list(requestKey: aKey).count == 2)
        #expect(try store.list(requestKey: bKey).count == 1)
        #expect(try store.list(requestKey: aKey).allSatisfy { $0.request.url.contains("from=a") })
        // And restoring an entry in the explorer gives back the template, not the resolved URL
        var state = AppState(size: .init(width: 120, height: 40), collectionPath: folder.path, environment: "dev")
        _ = update(&state, .collectionLoaded(collection))
        var pane = HistoryPaneState(store: store)
        _ = pane.show(requestKey: bKey)
        _ = update(&state, .historyOpened(pane))
        _ = update(&state, .input(.key(.char("r"))))
        #expect(state.editor.url.text == "{{base}}/echo?from=b")
    }
}

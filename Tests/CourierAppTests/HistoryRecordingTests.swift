import CourierApp
import CourierBody
import CourierDemo
import CourierHTTP
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
        var actions: [Action] = []
        func waitFor<T>(_ match: (Action) -> T?) async -> T? {
            for _ in 0..<1000 {
                actions += queue.drain()
                if let found = actions.lazy.compactMap(match).first { return found }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }
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
        #expect(recorded?.0 == "whoami")
        #expect(recorded?.1?.durations.count == 1)
        // And the store holds the entry with the Authorization value and the token redacted everywhere
        let store = HistoryStore(directory: historyFolder)
        let entry = try #require(try store.list(requestKey: "whoami").first)
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
}

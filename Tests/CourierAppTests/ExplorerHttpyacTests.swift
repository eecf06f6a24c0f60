@testable import CourierApp
import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// httpyac files in the explorer: listed as `courier run` reads them, and sent the way it sends them, through
/// the same script runner, resolver and collection runner.
@Suite("httpyac files in the explorer", .serialized)
struct ExplorerHttpyacTests {
    static let file = """
        @host = {{base}}
        # @name login
        POST /auth/login
        {{
          exports.token = response.parsedBody.access_token;
        }}
        # @name me
        GET /me
        Authorization: Bearer {{token}}
        ?? status == 200

        ###
        # @name profile
        # @ref login
        GET /me
        Authorization: Bearer {{token}}

        ###
        GRPC localhost:50051/helloworld.Greeter/SayHello
        """

    @Test func requestsWithoutSeparatorsAreListedAndTheirScriptsExportToTheNext() async throws {
        // Given an httpyac file: path-only requests under @host, no `###` between login and me
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("yac.http")
        try Data(Self.file.utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        #expect(collection.files[0].requests.map(\.name) == ["login", "me", "profile", ""], "the GRPC request is listed too")
        // When login, then me, are sent
        let login = RequestRef(file: collection.files[0].path, index: 0)
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: login, draft: try #require(collection.request(login)),
                                                                  environment: nil))])
        _ = try #require(await harness.waitFor { if case .responsePaneReady(1, let pane) = $0 { pane } else { nil } })
        let me = RequestRef(file: collection.files[0].path, index: 1)
        harness.runner.perform([.send(generation: 2, job: SendJob(ref: me, draft: try #require(collection.request(me)),
                                                                  environment: nil))])
        let pane = try #require(await harness.waitFor {
            if case .responsePaneReady(2, let pane) = $0 { pane } else { nil }
        })
        // Then me went to the host with the token login's script exported, and its `??` test passed
        #expect(pane.info.status == 200)
        #expect(pane.info.tests == "1 test passed", "\(String(describing: pane.info.tests))")
        let sent = try #require(harness.server.log.last { $0.path == "/me" })
        #expect(sent.header("Authorization")?.hasPrefix("Bearer at_") == true)
    }

    @Test func aRequestWithRefRunsTheNamedRequestFirstAsCourierRunDoes() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("yac.http")
        try Data(Self.file.utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        // When profile (`# @ref login`) is sent first in the session
        let profile = RequestRef(file: collection.files[0].path, index: 2)
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: profile,
                                                                  draft: try #require(collection.request(profile)),
                                                                  environment: nil))])
        let pane = try #require(await harness.waitFor {
            if case .responsePaneReady(1, let pane) = $0 { pane } else { nil }
        })
        // Then login ran before it and its token went out
        #expect(pane.info.tests == "ran login 200 · profile 200", "\(String(describing: pane.info.tests))")
        #expect(harness.server.log.map(\.path) == ["/auth/login", "/me"])
    }

    @Test func aGRPCRequestIsListedAsGRPCAndNotSentAsHTTP() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yac-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.file.utf8).write(to: folder.appendingPathComponent("yac.http"))
        let (collection, problems) = CollectionStore().load(folder.path)
        #expect(collection.files.first?.requests.map(\.kind) == [.http, .http, .http, .grpc])
        #expect(problems.isEmpty, "\(problems)")
        var state = AppState(size: Size(width: 110, height: 24), collectionPath: folder.path, environment: nil)
        _ = update(&state, .collectionLoaded(collection))
        #expect(state.collection.files.first?.requests.allSatisfy { $0.method != "GRPC" } == true)
    }

    @Test func anInputVariableIsAskedWithItsDefaultOfferedAndAPasswordIsTypedAsDots() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yac-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            @query = {{$input Search for? $value: swift}}
            @token = {{$password Token?}}
            GET http://127.0.0.1:1/search?q={{query}}
            X-Token: {{token}}
            """.utf8).write(to: folder.appendingPathComponent("ask.http"))
        let (collection, _) = CollectionStore().load(folder.path)
        var state = AppState(size: Size(width: 100, height: 24), collectionPath: folder.path, environment: nil)
        _ = update(&state, .collectionLoaded(collection))
        _ = state.open(RequestRef(file: collection.files[0].path, index: 0), force: true)
        _ = state.send()
        guard case .prompt(let first)? = state.modals.last else { Issue.record("no prompt: \(state.modals)"); return }
        #expect(first.title == "Value for query (Search for?)")
        #expect(first.editor.text == "swift")
        #expect(!first.isSecret)
        state.promptAnswers["query"] = "swift"
        state.modals.removeAll()
        _ = state.send()
        guard case .prompt(let second)? = state.modals.last else { Issue.record("no prompt: \(state.modals)"); return }
        #expect(second.title == "Value for token (Token?)")
        #expect(second.isSecret)
    }

    @Test func aRequestSentAloneUnderKulalasSharedBlockRunsTheSharedRequestFirst() async throws {
        // Given a kulala file whose first block is `### Shared`
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("kul.http")
        try Data("### Shared\nGET {{base}}/users/1\n\n### one\nGET {{base}}/echo\n".utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        // When the second request is sent
        let one = RequestRef(file: collection.files[0].path, index: 1)
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: one, draft: try #require(collection.request(one)),
                                                                  environment: nil))])
        _ = try #require(await harness.waitFor { if case .responsePaneReady(1, let pane) = $0 { pane } else { nil } })
        // Then the shared request went first, as kulala runs it
        #expect(harness.server.log.map(\.path).suffix(2) == ["/users/1", "/echo"], "\(harness.server.log.map(\.path))")
    }
}

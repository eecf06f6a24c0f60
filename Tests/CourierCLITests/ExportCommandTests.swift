import CourierBody
import CourierHistory
import CourierTestSupport
import Foundation
import Testing

/// `courier export`'s choices about where the models' response comes from, and its usage errors.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct ExportCommandTests {
    /// A collection whose request goes to `base`.
    static func project(base: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("export-command")
        try folder.write("api.http", "### Users\n# @name listUsers\nGET \(base)/users\nAccept: application/json\n")
        return folder
    }

    @Test("--from-history makes the models from the request's newest kept response, sending nothing")
    func fromHistory() async throws {
        // Given no server, and two kept responses of the request: an older one and a newer one
        let folder = try Self.project(base: "http://127.0.0.1:9")
        let state = folder.url.appendingPathComponent("state")
        let store = HistoryStore(directory: state.appendingPathComponent("courier/history"))
        for (age, body) in [(60.0, #"[{"old_field": 1}]"#), (1.0, #"[{"id": 1, "name": "a"}, {"id": 2}]"#)] {
            let entry = HistoryEntry(date: Date().addingTimeInterval(-age),
                                     request: .init(method: "GET", url: "http://127.0.0.1:9/users", name: "listUsers",
                                                    collectionPath: "api.http"),
                                     response: .init(status: 200, bodyBytes: body.utf8.count), timing: .init())
            try store.record(entry, body: Data(body.utf8))
        }

        // When the Swift export takes its models from history
        let export = try await CourierCLI.run(["export", "swift", "api.http", "--name", "listUsers", "--models",
                                               "--from-history"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": state.path])

        // Then they are the newer response's
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("typealias Users = [User]"))
        #expect(export.stdout.contains("let name: String?"))
        #expect(!export.stdout.contains("oldField"))
    }

    @Test("Models of a request that gets no response, or an error status, fail with what to do instead")
    func noResponseNoModels() async throws {
        // Given nothing listening at the request's port
        let folder = try Self.project(base: "http://127.0.0.1:9")
        let state = folder.url.appendingPathComponent("state").path
        let offline = try await CourierCLI.run(["export", "swift", "api.http", "--models"], in: folder.url,
                                               environment: ["XDG_STATE_HOME": state])
        #expect(offline.status == 1)
        #expect(offline.stderr.contains("'listUsers' got no response"), "\(offline.stderr)")
        #expect(offline.stderr.contains("--from-history"))
        let noHistory = try await CourierCLI.run(["export", "swift", "api.http", "--models", "--from-history"],
                                                 in: folder.url, environment: ["XDG_STATE_HOME": state])
        #expect(noHistory.status == 1)
        #expect(noHistory.stderr.contains("no successful response of 'listUsers' (api.http) in history"))

        // And given a server answering 404
        let server = try LoopbackServer { _ in .json(#"{"error": "gone"}"#, status: 404) }
        defer { server.stop() }
        let missing = try Self.project(base: "http://127.0.0.1:\(server.port)")
        let notFound = try await CourierCLI.run(["export", "swift", "api.http", "--models"], in: missing.url)
        #expect(notFound.status == 1)
        #expect(notFound.stderr.contains("'listUsers' answered 404; models are made from a successful response"))
    }

    @Test("Usage errors: an unknown language, --models for another language, --main for curl, --from-history alone")
    func usageErrors() async throws {
        let folder = try Self.project(base: "http://127.0.0.1:9")
        let cases: [([String], String)] = [
            (["export", "cobol", "api.http"], "unknown language 'cobol'; use curl, httpie, python, js, go, kotlin, swift"),
            (["export", "python", "api.http", "--models"], "--models makes Swift models"),
            (["export", "curl", "api.http", "--main"], "a curl command is already a program"),
            (["export", "swift", "api.http", "--from-history"], "--from-history goes with --models"),
        ]
        for (arguments, message) in cases {
            let result = try await CourierCLI.run(arguments, in: folder.url)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}

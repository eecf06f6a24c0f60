import CourierApp
import CourierHTTP
import Foundation
import Testing

@Suite("the collection store: loading, saving, editing and resolving through CourierCollections")
struct CollectionStoreTests {
    static let text = """
        # Shared comment that must survive
        @host = http://127.0.0.1:9

        ### List
        # @name list
        GET {{host}}/users?page=1
        Accept: application/json

        ### Create
        POST {{base}}/users
        Content-Type: application/json

        {"name": "Ann"}

        """

    /// A temporary folder with one `.http` file and an environment file; removed by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("api.http"))
        try Data(#"{"dev": {"base": "http://127.0.0.1:10"}}"#.utf8)
            .write(to: folder.appendingPathComponent("http-client.env.json"))
        return folder
    }

    @Test func loadingAFileGivesTheTreeFileVariablesAndEnvironments() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (collection, problems) = CollectionStore().load(folder.appendingPathComponent("api.http").path)
        #expect(problems.isEmpty)
        #expect(collection.files.count == 1)
        #expect(collection.files[0].displayPath == ["api.http"])
        #expect(collection.files[0].requests.map(\.name) == ["list", "Create"])
        #expect(collection.files[0].variables["host"] == "http://127.0.0.1:9")
        #expect(collection.environmentNames == ["dev"])
        #expect(collection.environments["dev"]?["base"] == "http://127.0.0.1:10")
    }

    @Test func savingAnEditedURLChangesOnlyThatRequestsLine() throws {
        // Given the file loaded and its first request edited
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.http")
        let store = CollectionStore()
        let (collection, _) = store.load(folder.path)
        let ref = RequestRef(file: "api.http", index: 0)
        var draft = try #require(collection.request(ref))
        draft.url = "{{host}}/users?page=2"
        // When saving
        let saved = try store.save(ref, draft)
        // Then exactly one line of the file differs
        let after = try String(contentsOf: file, encoding: .utf8)
        let before = Self.text.split(separator: "\n", omittingEmptySubsequences: false)
        let now = after.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == now.count)
        let changed = zip(before, now).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first?.1 == "GET {{host}}/users?page=2")
        #expect(saved.request(ref)?.url == "{{host}}/users?page=2")
    }

    @Test func addingDuplicatingRenamingAndDeletingRequests() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CollectionStore()
        _ = store.load(folder.path)
        let first = RequestRef(file: "api.http", index: 0)

        let (duplicated, copy) = try store.apply(.duplicate(first))
        #expect(copy == RequestRef(file: "api.http", index: 1))
        #expect(duplicated.files[0].requests.map(\.name) == ["list", "list-copy", "Create"])

        let (renamed, _) = try store.apply(.rename(RequestRef(file: "api.http", index: 1), to: "second"))
        #expect(renamed.files[0].requests.map(\.name) == ["list", "second", "Create"])

        let (added, new) = try store.apply(.add(file: "api.http", RequestDraft(name: "ping", url: "{{host}}/ping")))
        #expect(new == RequestRef(file: "api.http", index: 3))
        #expect(added.files[0].requests.last?.url == "{{host}}/ping")

        let (deleted, _) = try store.apply(.delete(RequestRef(file: "api.http", index: 1)))
        #expect(deleted.files[0].requests.map(\.name) == ["list", "Create", "ping"])
        let text = try String(contentsOf: folder.appendingPathComponent("api.http"), encoding: .utf8)
        #expect(text.hasPrefix("# Shared comment that must survive\n@host = http://127.0.0.1:9\n"))
    }

    @Test func resolvingUsesTheEnvironmentOverridesAndOptions() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CollectionStore(overrides: ["host": "http://127.0.0.1:11"])
        let (collection, _) = store.load(folder.path)
        var list = try #require(collection.request(RequestRef(file: "api.http", index: 0)))
        list.maxAttempts = 1
        list.cacheMode = .reload
        list.timeout = 2.5
        let (request, _) = try store.resolve(SendJob(ref: RequestRef(file: "api.http", index: 0), draft: list,
                                                     environment: "dev"))
        #expect(request.url.absoluteString == "http://127.0.0.1:11/users?page=1")
        #expect(request.maxAttempts == 1 && request.cacheMode == .reload && request.timeout == .milliseconds(2500))
        let create = try #require(collection.request(RequestRef(file: "api.http", index: 1)))
        let (post, _) = try store.resolve(SendJob(ref: RequestRef(file: "api.http", index: 1), draft: create,
                                                  environment: "dev"))
        #expect(post.url.absoluteString == "http://127.0.0.1:10/users")
        #expect(post.body == .data(Data(#"{"name": "Ann"}"#.utf8)))
    }

    @Test func anUnknownVariableIsAnErrorNamingIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CollectionStore()
        let (collection, _) = store.load(folder.path)
        let ref = RequestRef(file: "api.http", index: 1)
        let create = try #require(collection.request(ref))
        #expect(throws: (any Error).self) { try store.resolve(SendJob(ref: ref, draft: create, environment: nil)) }
        do {
            _ = try store.resolve(SendJob(ref: ref, draft: create, environment: nil))
        } catch {
            #expect("\(error)".contains("base"))
        }
    }
}

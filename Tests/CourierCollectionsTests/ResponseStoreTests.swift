import CourierHTTP
import Foundation
import Testing
@testable import CourierCollections

/// `{{name.response.body.<path>}}` lookups: one value, several values as an array, and clear failures.
@Suite struct ResponseStoreTests {
    func store(_ body: String) -> ResponseStore {
        var store = ResponseStore()
        store.record(name: "login", entry: .init(status: 200, headers: ["Content-Type": "application/json"],
                                                 body: Data(body.utf8)))
        return store
    }

    @Test("a path selecting one value gives it; several give a JSON array; the whole body with no path")
    func lookupsSelectValues() throws {
        // Given a recorded JSON response
        let store = store(#"{"token":"t-1","users":[{"id":1},{"id":2}]}"#)
        // Then each kind of reference resolves
        #expect(try store.value(for: "login.response.body.$.token").get() == "t-1")
        #expect(try store.value(for: "login.response.body.$.users[*].id").get() == "[1,2]")
        #expect(try store.value(for: "login.response.body").get() == #"{"token":"t-1","users":[{"id":1},{"id":2}]}"#)
    }

    @Test("a store told which names are read keeps only those responses and failures, and the last one not at all")
    func aStoreKeepsOnlyTheNamesARunReads() throws {
        // Given a run's store that knows only `login` is read
        var store = ResponseStore()
        store.keptNames = ["login"]
        // When three requests answer or fail
        store.record(name: "login", entry: .init(status: 200, headers: [:], body: Data(#"{"token":"t"}"#.utf8)))
        store.record(name: "list", entry: .init(status: 200, headers: [:], body: Data("[]".utf8)))
        store.recordFailure(name: "audit", reason: "timed out")
        store.recordLast(response: HTTPResponse(status: 200, body: .data(Data("x".utf8)), url: URL(string: "http://h/")!))
        // Then only login is there to read
        #expect(try store.value(for: "login.response.body.$.token").get() == "t")
        #expect(store.entry("list") == nil && store.entry("audit") == nil)
        #expect(store.entry(ResponseStore.lastName) == nil)
    }

    @Test("a copy that notes its changes gives back only what it recorded, never an older copy of another's")
    func aTrackedCopyMergesOnlyWhatItRecorded() throws {
        // Given the run's store, and a copy a parallel request starts from
        var run = store(#"{"token":"old"}"#)
        var copy = run
        copy.trackChanges()
        // When the copy records its own response while another request replaces login in the run's store
        copy.record(name: "orders", entry: .init(status: 200, headers: [:], body: Data(#"{"n":1}"#.utf8)))
        copy.recordFailure(name: "audit", reason: "timed out")
        run.record(name: "login", entry: .init(status: 200, headers: [:], body: Data(#"{"token":"new"}"#.utf8)))
        run.merge(copy)
        // Then the copy's response and failure arrive, and its stale login does not undo the newer one
        #expect(try run.value(for: "orders.response.body.$.n").get() == "1")
        #expect(try run.value(for: "login.response.body.$.token").get() == "new")
        if case .success = run.value(for: "audit.response.body") { Issue.record("a failed request has no response") }
    }

    @Test("a body that is not JSON, a bad path and a path with no match each say what is wrong")
    func failuresSayWhy() {
        func message(_ result: Result<String, ResponseLookupFailure>) -> String {
            if case .failure(let failure) = result { failure.message } else { "" }
        }
        #expect(message(store("<html>").value(for: "login.response.body.$.token")).contains("is not JSON"))
        #expect(message(store("{}").value(for: "login.response.body.$.[")) != "")
        #expect(message(store("{}").value(for: "login.response.body.$.token")).contains("nothing at path"))
        #expect(message(store("{}").value(for: "other.response.body.$.token")).contains("has not run"))
    }

    @Test("a value near the end of a large body is found")
    func largeBodyLookup() throws {
        // Given a response of many records whose last one holds the value
        let records = (0..<50_000).map { #"{"id":\#($0),"name":"user \#($0)"}"# }.joined(separator: ",")
        let store = store(#"{"items":["# + records + #"],"next":"cursor-9"}"#)
        // Then the lookup finds it
        #expect(try store.value(for: "login.response.body.$.next").get() == "cursor-9")
    }
}

extension ResponseStoreTests {
    @Test("a request variable reads the sent request, and a secret it copies stays a secret")
    func requestVariablesCarryTheSecretsOfTheRequestTheyRead() throws {
        // Given login sent with a private key in a header and a JSON body
        var sent = HTTPRequest(method: .post, url: URL(string: "http://x/login")!,
                               headers: ["X-Key": "k-private-1", "Content-Type": "application/json"],
                               body: .data(Data(#"{"user":"ada"}"#.utf8)))
        sent.knownSecrets = ["k-private-1"]
        var store = ResponseStore()
        store.record(name: "login", response: HTTPResponse(status: 200, reason: "OK", headers: [:], body: .data(Data()),
                                                           url: URL(string: "http://x/login")!),
                     request: sent)
        #expect(try store.value(for: "login.request.body.$.user").get() == "ada")
        #expect(try store.value(for: "login.request.headers.x-key").get() == "k-private-1")
        // When a later request copies the key
        let file = HTTPFile(path: "c.http", text: "GET http://x/copy\nX-Copy: {{login.request.headers.X-Key}}\n")
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                    context: VariableContext(responses: store)).resolve(file.requests[0])
        // Then it goes out, and is known as a secret of that request (history and output mask it)
        #expect(resolved.request.headers["X-Copy"] == "k-private-1")
        #expect(resolved.secrets.contains("k-private-1"))
    }
}

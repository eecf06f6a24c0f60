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

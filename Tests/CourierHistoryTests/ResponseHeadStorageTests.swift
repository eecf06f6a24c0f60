import CourierMessage
import Foundation
import Testing
@testable import CourierHistory

/// A kept response holds the response's head, and history files keep it flat beside the body sizes.
@Suite struct ResponseHeadStorageTests {
    @Test func aResponseKeptFromAHeadIsStoredFlatWithoutItsVersion() throws {
        // Given the head of an HTTP/2 response (no reason phrase) kept in history
        let head = ResponseHead(version: "HTTP/2", status: 201, reason: "", headers: [.init("Location", "/users/7")])
        let kept = HistoryEntry.Response(head: head, bodyBytes: 3)
        // When it is written
        let data = try JSONEncoder().encode(kept)
        // Then the file holds the status and headers flat, no reason and no version, and reads back the same
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["status", "headers", "bodyBytes", "storedBodyBytes"])
        #expect(object["status"] as? Int == 201)
        let read = try JSONDecoder().decode(HistoryEntry.Response.self, from: data)
        #expect(read == kept && read.reason == nil && read.headers["location"] == "/users/7")
    }

    @Test func aReasonPhraseIsKeptAndReadBack() throws {
        // Given an HTTP/1.1 response with a reason phrase
        let kept = HistoryEntry.Response(head: ResponseHead(version: "HTTP/1.1", status: 404, reason: "Not Found"))
        // When it is written and read back
        let read = try JSONDecoder().decode(HistoryEntry.Response.self, from: JSONEncoder().encode(kept))
        // Then the phrase survives and the head is the one kept
        #expect(read.reason == "Not Found" && read.head == ResponseHead(status: 404, reason: "Not Found"))
    }
}

import CourierMessage
import CourierTestSupport
import Foundation
import Testing
@testable import CourierHistory

/// History files outlive the code that wrote them: an entry written before headers had one type (session 10's
/// shape, kept as a fixture) still loads, and entries are written in that same shape.
@Suite struct StoredEntryShapeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/session10")
    static let id = "20260101-000000-000-0a1b2c"

    @Test func anEntryWrittenBySessionTensCodeLoadsWithItsHeadersInOrder() throws {
        // Given a history folder holding an entry as an earlier Courier wrote it
        let store = HistoryStore(directory: Self.fixtures)
        // When it is loaded
        let entry = try store.load(id: Self.id)
        // Then its headers keep their order, duplicates and case, and look up without case
        #expect(entry.request.headers.map(\.name) == ["Authorization", "Accept"])
        #expect(entry.request.template?.headers["authorization"] == "Bearer {{token}}")
        #expect(entry.response?.headers.values(for: "Vary") == ["Accept", "Origin"])
        #expect(entry.response?.status == 200 && entry.response?.storedBodyBytes == 14)
        #expect(String(decoding: try store.body(id: Self.id), as: UTF8.self) == #"{"name":"ada"}"#)
    }

    @Test func aRecordedEntryIsWrittenInTheShapeEarlierEntriesHave() throws {
        // Given the fixture entry loaded
        let old = try HistoryStore(directory: Self.fixtures).load(id: Self.id)
        let folder = try TemporaryFolder()
        // When it is recorded again into another folder
        let stored = try HistoryStore(directory: folder.url).record(old, body: Data(#"{"name":"ada"}"#.utf8))
        // Then the file written is, field for field, the one the earlier code wrote
        let written = try Data(contentsOf: folder.url.appendingPathComponent(stored.id + ".json"))
        let original = try Data(contentsOf: Self.fixtures.appendingPathComponent(Self.id + ".json"))
        var expected = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        expected["id"] = stored.id
        let actual = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(NSDictionary(dictionary: actual) == NSDictionary(dictionary: expected))
    }
}

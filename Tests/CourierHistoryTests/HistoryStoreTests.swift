import CourierTestSupport
import Foundation
import Testing
@testable import CourierHistory

@Suite struct HistoryStoreTests {
    static let token = HistorySample.token
    static let privateValue = HistorySample.privateValue

    static func entry(_ name: String = "getUser", status: Int = 200, date: Date = Date()) -> HistoryEntry {
        HistorySample.entry(name, status: status, date: date)
    }

    @Test func secretsNeverReachTheFilesHistoryWrites() throws {
        // Given a response whose request and body carry secrets
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let body = Data(#"{"token":"\#(Self.token)","echo":"\#(Self.privateValue)"}"#.utf8)
        // When it is recorded
        let stored = try store.record(Self.entry(), body: body, secrets: [Self.token, Self.privateValue])
        // Then no file holds a secret or the cookie, and masks show where they were
        let text = try folder.allText()
        for secret in [Self.token, Self.privateValue, "session=abcdef"] { #expect(!text.contains(secret)) }
        #expect(stored.request.headers[0].value == "Bearer " + Redactor.mask)
        #expect(stored.request.headers[1].value == "t-" + Redactor.mask)
        #expect(stored.response?.headers[0].value == Redactor.mask)
        #expect(String(decoding: try store.body(id: stored.id), as: UTF8.self) == #"{"token":"REDACTED","echo":"REDACTED"}"#)
        #expect(!stored.request.url.contains(Self.privateValue))
    }

    @Test func entriesRecordedInTheSameMillisecondListNewestFirstInTheOrderTheyWereMade() throws {
        // Given forty entries of one request, all made in the same millisecond
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let date = Date()
        for index in 0..<40 {
            try store.record(Self.entry(date: date), body: Data("\(index)".utf8))
        }
        // When the request's entries are listed
        let bodies = try store.list(requestKey: "getUser").map { String(decoding: try store.body(id: $0.id), as: UTF8.self) }
        // Then the newest is the last one made, and the rest follow in reverse order
        #expect(bodies == (0..<40).reversed().map(String.init))
    }

    @Test func aBodyOverTheLimitIsTruncatedWithANoteAndNoHalfSecret() throws {
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url, limits: .init(maxBodyBytes: 100))
        // Given a secret that straddles the body limit
        let body = Data((String(repeating: "x", count: 95) + Self.token + String(repeating: "y", count: 1000)).utf8)
        let stored = try store.record(Self.entry(), body: body, secrets: [Self.token])
        #expect(stored.response?.storedBodyBytes == 100)
        #expect(stored.response?.bodyBytes == body.count)
        #expect(stored.response?.bodyNote?.hasPrefix("truncated") == true)
        #expect(!(try folder.allText()).contains("s3cr3t"))
    }

    @Test func historyIsBoundedByCountAndSizeOldestFirst() throws {
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url, limits: .init(maxEntries: 3, maxTotalBytes: 1 << 20))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var ids: [String] = []
        for index in 0..<5 {
            ids.append(try store.record(Self.entry(status: 200 + index, date: start + Double(index))).id)
        }
        #expect(try store.list().map(\.id) == ids.suffix(3).reversed())
        // Size: each entry is about 3 KB with its 2 KB body; a 7 KB budget keeps two of them
        let other = try TemporaryFolder()
        let small = HistoryStore(directory: other.url, limits: .init(maxEntries: 100, maxTotalBytes: 7_000))
        for index in 0..<4 { try small.record(Self.entry(date: start + 10 + Double(index)), body: Data(count: 2_000)) }
        #expect(try small.list().count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.url.path).allSatisfy { !$0.hasPrefix(".tmp") })
    }

    @Test func entriesAreListedPerRequestSearchedAndLoaded() throws {
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let first = try store.record(Self.entry("getUser"), body: Data("hello ada".utf8))
        try store.record(Self.entry("listUsers"), body: Data("hello brian".utf8))
        #expect(try store.list(requestKey: "getUser").map(\.id) == [first.id])
        #expect(try store.search("BRIAN").map(\.request.name) == ["listUsers"])
        #expect(try store.load(id: String(first.id.prefix(first.id.count - 2))) == first)
        #expect(throws: HistoryError.self) { try store.load(id: "nope") }
    }

    @Test func theDefaultFolderHonoursXDGStateHome() {
        #expect(HistoryStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path == "/s/courier/history")
        #expect(HistoryStore.defaultDirectory(environment: ["HOME": "/h"]).path == "/h/.local/state/courier/history")
    }
}

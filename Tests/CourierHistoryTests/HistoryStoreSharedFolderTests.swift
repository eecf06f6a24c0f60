import CourierTestSupport
import Foundation
import Testing
@testable import CourierHistory

/// A store keeps the entries it decoded (an entry's file never changes once written), so listing a full
/// history decodes only what is new; what another process adds or prunes in the same folder still shows.
@Suite struct HistoryStoreSharedFolderTests {
    @Test func entriesAnotherStoreAddsAndPrunesShowInAListingThatDecodedBefore() throws {
        // Given two stores on one folder (two explorers), each keeping at most three entries
        let folder = try TemporaryFolder()
        let limits = HistoryStore.Limits(maxEntries: 3)
        let mine = HistoryStore(directory: folder.url, limits: limits)
        let theirs = HistoryStore(directory: folder.url, limits: limits)
        for index in 0..<3 { try mine.record(HistorySample.entry("r\(index)"), body: Data()) }
        #expect(try mine.list().map(\.request.name) == ["r2", "r1", "r0"])
        // When the other store records two more, pruning the two oldest
        try theirs.record(HistorySample.entry("r3"), body: Data())
        try theirs.record(HistorySample.entry("r4"), body: Data())
        // Then this store's listing shows exactly what the folder holds, newest first
        #expect(try mine.list().map(\.request.name) == ["r4", "r3", "r2"])
        #expect(try mine.list(requestKey: "r0").isEmpty)
    }

    @Test func aFullHistoryIsPrunedToItsLimitsByOneListing() throws {
        // Given a store bounded at five entries and 2 KB in all
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url, limits: HistoryStore.Limits(maxEntries: 5, maxTotalBytes: 6_000))
        // When eight entries with 1 KB bodies are recorded
        for index in 0..<8 { try store.record(HistorySample.entry("r\(index)"), body: Data(repeating: 0x61, count: 1_000)) }
        // Then the newest that fit the size limit are kept, entry and body each
        let names = try store.list().map(\.request.name)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.first == "r7")
        #expect(names.count < 5)
        #expect(files.filter { $0.hasSuffix(".json") }.count == names.count)
        #expect(files.filter { $0.hasSuffix(".body") }.count == names.count)
    }
}

import CourierHTTP
import CourierTestSupport
import Foundation
import Testing

/// Collecting what interrupted writers left is done at most once an hour across processes: listing a
/// folder of thousands of entries and reading those with body files took 30 ms of every `courier send
/// --cache-mode` and of the explorer's first frame.
@Suite("Cache housekeeping")
struct CacheHousekeepingTests {
    static let stem = String(repeating: "ab", count: 16)

    /// A body file named as the store names them, which no entry names.
    static func orphan(in folder: URL, id: String) throws -> URL {
        let file = folder.appendingPathComponent("\(stem).\(id).body")
        try Data("left behind".utf8).write(to: file)
        return file
    }

    @Test func aFolderOpenedForTheFirstTimeIsCollectedAndMarked() throws {
        // Given a folder holding a body no entry names
        let directory = try TemporaryFolder("cache-housekeeping")
        let folder = directory.url.appendingPathComponent("http")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let orphan = try Self.orphan(in: folder, id: "0badf00d")
        // When the store opens it (no collection on record)
        _ = try HTTPCacheStore(directory: folder, orphanGrace: 0)
        // Then the orphan is gone and the time of the collection is on record
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(HTTPCacheStore.housekeepingMarker).path))
    }

    @Test func anotherOpenWithinTheIntervalDoesNotListTheFolderAgainAndOneAfterItDoes() throws {
        // Given a folder collected a moment ago, and a body left behind since
        let directory = try TemporaryFolder("cache-housekeeping")
        _ = try HTTPCacheStore(directory: directory.url, orphanGrace: 0)
        let orphan = try Self.orphan(in: directory.url, id: "deadbeef")
        // When it is opened again, then the orphan is still there: collection is not due
        let store = try HTTPCacheStore(directory: directory.url, orphanGrace: 0)
        #expect(FileManager.default.fileExists(atPath: orphan.path))
        store.collectLeftoversIfDue(now: Date().addingTimeInterval(HTTPCacheStore.housekeepingInterval / 2))
        #expect(FileManager.default.fileExists(atPath: orphan.path))
        // And once the interval has passed it is collected
        store.collectLeftoversIfDue(now: Date().addingTimeInterval(HTTPCacheStore.housekeepingInterval + 1))
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
    }

    @Test func aRecordFromTheFutureDoesNotPutCollectionOff() throws {
        // Given a folder whose record of the last collection is a day ahead (a clock set back since)
        let directory = try TemporaryFolder("cache-housekeeping")
        let store = try HTTPCacheStore(directory: directory.url, orphanGrace: 0)
        let marker = directory.url.appendingPathComponent(HTTPCacheStore.housekeepingMarker)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(86_400)], ofItemAtPath: marker.path)
        let orphan = try Self.orphan(in: directory.url, id: "c0ffee00")
        // When collection is asked for if due, then it runs
        store.collectLeftoversIfDue()
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
    }

    @Test func aStoreOpenedWithHousekeepingLaterLeavesTheFolderAlone() throws {
        // Given a never collected folder with a body left behind
        let directory = try TemporaryFolder("cache-housekeeping")
        let orphan = try Self.orphan(in: directory.url, id: "feedface")
        // When it is opened for later housekeeping, then nothing is collected yet
        let store = try HTTPCacheStore(directory: directory.url, orphanGrace: 0, housekeeping: .later)
        #expect(FileManager.default.fileExists(atPath: orphan.path))
        // And when its opener asks, it is
        store.collectLeftoversIfDue()
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
    }

    @Test func clearLeavesAnEmptyFolder() throws {
        let directory = try TemporaryFolder("cache-housekeeping")
        let store = try HTTPCacheStore(directory: directory.url)
        #expect(try store.clear() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}

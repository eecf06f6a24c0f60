import CourierHTTP
import CourierTestSupport
import Foundation
import Testing

/// A fresh hit reuses the entry it decoded while the entry's file is the same file, unchanged; a file
/// another process renamed into place, or changed in place, is read again.
@Suite("Cache entry reuse")
struct CacheEntryMemoTests {
    func entry(_ body: String) -> (HTTPCacheEntry, ResponseBody) {
        let url = CacheFixture.url("/memo")
        let response = HTTPResponse.cacheStub(200, ["Cache-Control": "max-age=60"], body: body, url: url)
        return (HTTPCacheEntry(method: .get, url: url, response: response, selectedRequestHeaders: [:],
                               requestTime: Date(), responseTime: Date()), response.body)
    }

    func body(_ store: HTTPCacheStore) throws -> String? {
        guard case .hit(let found) = store.lookup(method: .get, url: CacheFixture.url("/memo")) else { return nil }
        return String(decoding: try store.body(of: found).readAll(), as: UTF8.self)
    }

    func entryFile(_ directory: TemporaryFolder) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .first { $0.hasSuffix(".entry") })
        return directory.url.appendingPathComponent(name)
    }

    /// A store in a new folder holding one entry (body "first"), looked up once.
    func storeLookedUpOnce() throws -> (TemporaryFolder, HTTPCacheStore) {
        let directory = try TemporaryFolder("cache-memo")
        let store = try HTTPCacheStore(directory: directory.url)
        let (saved, savedBody) = entry("first")
        try store.save(saved, body: savedBody)
        #expect(try body(store) == "first")
        return (directory, store)
    }

    @Test func anUnchangedFileIsNotDecodedAgain() throws {
        // Given an entry this store looked up once
        let (directory, store) = try storeLookedUpOnce()
        // When its file's bytes change but not its identity (same inode, size and modification time)
        let file = try entryFile(directory)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        var bytes = try Data(contentsOf: file)
        let range = try #require(bytes.range(of: Data("\"url\"".utf8)))
        bytes.replaceSubrange(range, with: Data("\"xrl\"".utf8))
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: bytes)
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        // Then the next lookup is answered from the entry decoded before, with no read of the file
        #expect(try body(store) == "first")
    }

    @Test func anEntryAnotherProcessReplacedIsReadAgain() throws {
        // Given an entry this store looked up once
        let (directory, store) = try storeLookedUpOnce()
        // When another store (another process) saves a new response for the same URL
        let other = try HTTPCacheStore(directory: directory.url)
        let (newer, newerBody) = entry("second")
        try other.save(newer, body: newerBody)
        // Then this store serves the new one
        #expect(try body(store) == "second")
    }

    @Test func anEntryDamagedInPlaceIsUnreadableNotServedFromMemory() throws {
        // Given an entry this store looked up once
        let (directory, store) = try storeLookedUpOnce()
        // When its file is overwritten in place with something else
        try Data("{not json".utf8).write(to: try entryFile(directory))
        // Then it is reported unreadable and removed
        guard case .unreadable = store.lookup(method: .get, url: CacheFixture.url("/memo")) else {
            Issue.record("a damaged entry was served"); return
        }
        #expect(store.lookup(method: .get, url: CacheFixture.url("/memo")).isMiss)
    }
}

extension HTTPCacheStore.Lookup {
    var isMiss: Bool { if case .miss = self { true } else { false } }
}

import CourierSecurity
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// Saving a collection keeps what surrounds it safe: a file opened through a symbolic link is saved where
/// the link points, and the temporary files killed saves left are collected once their writer is gone,
/// never while one still writes.
@Suite("Saving through links and collecting killed saves")
struct CollectionFileSafetyTests {
    /// A temporary file named as AtomicFile names them, left beside `name` in `folder`, last changed `age` ago.
    static func leftover(beside name: String, in folder: TemporaryFolder, age: TimeInterval) throws -> URL {
        let url = AtomicFile.temporaryURL(beside: folder.url.appendingPathComponent(name))
        try Data("half a save".utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
        return url
    }

    @Test func savingACollectionOpenedThroughALinkWritesTheTargetAndKeepsTheLink() throws {
        // Given a collection file in one folder and a link to it in another
        let real = try TemporaryFolder("real")
        let links = try TemporaryFolder("links")
        let target = try real.write("api.http", "GET https://x/a\n")
        let link = links.url.appendingPathComponent("api.http")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let loaded = try CollectionLoader.loadFile(link, displayPath: "api.http")
        // When an edit is saved through the link
        let saved = try CollectionWriter.save("GET https://x/b\n", over: loaded)
        // Then the target has the edit, the link is still a link to it, and nothing else was left
        #expect(try real.read("api.http") == "GET https://x/b\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(saved.file.requests.map(\.url) == ["https://x/b"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: links.url.path) == ["api.http"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: real.url.path) == ["api.http"])
        // And the next save goes through the link again
        try CollectionWriter.save("GET https://x/c\n", over: saved)
        #expect(try real.read("api.http") == "GET https://x/c\n")
    }

    @Test func temporaryFilesOfKilledSavesAreCollectedByTheNextSaveAndLoad() throws {
        // Given what a killed save leaves (its writer gone, so nobody holds it locked), beside a collection
        let folder = try TemporaryFolder("leftovers")
        let url = try folder.write("api.http", "GET https://x/a\n")
        let abandoned = try Self.leftover(beside: "api.http", in: folder, age: 3600)
        // When the collection is saved
        try CollectionWriter.save("GET https://x/b\n", over: try CollectionLoader.loadFile(url, displayPath: "api.http"))
        // Then the leftover is gone
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))

        // Given another left by a killed save of an environment file, then the folder loaded
        let another = try Self.leftover(beside: "http-client.env.json", in: folder, age: 3600)
        _ = CollectionLoader.load(folder.url.path)
        #expect(!FileManager.default.fileExists(atPath: another.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["api.http"])
    }

    @Test func aTemporaryFileALiveWriterHoldsOrJustMadeIsNeverCollected() throws {
        // Given a temporary file its writer still holds locked, however old, and one just created
        let folder = try TemporaryFolder("live")
        let url = try folder.write("api.http", "GET https://x/a\n")
        let held = try Self.leftover(beside: "api.http", in: folder, age: 3600)
        // (close-on-exec: a child another test starts meanwhile must not inherit the descriptor and its lock)
        let descriptor = open(held.path, O_RDWR | O_CLOEXEC)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let fresh = try Self.leftover(beside: "api.http", in: folder, age: 0)
        // When the collection is saved and loaded
        try CollectionWriter.save("GET https://x/b\n", over: try CollectionLoader.loadFile(url, displayPath: "api.http"))
        _ = CollectionLoader.load(folder.url.path)
        // Then both are still there
        #expect(FileManager.default.fileExists(atPath: held.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        // And once the writer lets go and the file has aged, it goes
        close(descriptor)
        #expect(AtomicFile.removeAbandoned(in: folder.url, now: Date(timeIntervalSinceNow: 3600)) == 2)
    }
}

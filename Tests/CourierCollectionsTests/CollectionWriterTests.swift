import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

@Suite("Loading folders and saving files")
struct CollectionWriterTests {
    @Test func loadingAFolderReportsEveryBadFileAndKeepsTheGoodOnes() throws {
        // Given a folder with good, malformed and non-UTF-8 files, one nested
        let folder = try TemporaryFolder()
        try folder.write("a.http", "GET https://x/a\n")
        try folder.write("nested/b.http", "GET https://x/b\nbroken header\n\n###\nGET https://x/c\n")
        try Data([0x47, 0x45, 0x54, 0x20, 0xFF, 0xFE]).write(to: folder.url.appendingPathComponent("bad.http"))
        try folder.write("notes.txt", "not a collection")
        try folder.write(".build/x.http", "GET https://x/ignored\n")
        // When loaded
        let collection = CollectionLoader.load(folder.url.path)
        // Then every problem is reported with file and line, and the good requests are there
        #expect(collection.files.map(\.file.path) == ["a.http", "nested/b.http"])
        #expect(collection.requests.map(\.url) == ["https://x/a", "https://x/c"])
        #expect(collection.errors.map(\.description) == [
            "bad.http:1: bad.http: cannot read: not valid UTF-8",
            "nested/b.http:2: expected a header 'Name: value' or a blank line before the body",
        ])
    }

    @Test func savingReplacesTheFileAtomicallyAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("a.http", "GET https://x/a\n")
        let loaded = try CollectionLoader.loadFile(url, displayPath: "a.http")
        var edited = loaded.file.requests[0]
        edited.url = "https://x/b"
        let saved = try CollectionWriter.save(try loaded.file.replacing(request: loaded.file.requests[0], with: edited),
                                              over: loaded)
        #expect(try folder.read("a.http") == "GET https://x/b\n")
        #expect(saved.file.requests[0].url == "https://x/b")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["a.http"])
        // And a second save over the fresh result works
        try CollectionWriter.save("GET https://x/c\n", over: saved)
        #expect(try folder.read("a.http") == "GET https://x/c\n")
    }

    @Test func aFileChangedOnDiskSinceLoadingIsNotOverwritten() throws {
        // Given a loaded file that another program then edits
        let folder = try TemporaryFolder()
        let url = try folder.write("a.http", "GET https://x/a\n")
        let loaded = try CollectionLoader.loadFile(url, displayPath: "a.http")
        try folder.write("a.http", "GET https://x/someone-else\n")
        // When Courier tries to save
        // Then it refuses with a typed error and the other edit survives
        #expect(throws: CollectionError.changedOnDisk(path: "a.http")) {
            try CollectionWriter.save("GET https://x/mine\n", over: loaded)
        }
        #expect(try folder.read("a.http") == "GET https://x/someone-else\n")
        // And a deleted file counts as changed
        try FileManager.default.removeItem(at: url)
        #expect(throws: CollectionError.changedOnDisk(path: "a.http")) {
            try CollectionWriter.save("GET https://x/mine\n", over: loaded)
        }
    }

    @Test func touchingAFileWithoutChangingItDoesNotBlockSaving() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("a.http", "GET https://x/a\n")
        let loaded = try CollectionLoader.loadFile(url, displayPath: "a.http")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: url.path)
        try CollectionWriter.save("GET https://x/b\n", over: loaded)
        #expect(try folder.read("a.http") == "GET https://x/b\n")
    }

    @Test func savingKeepsTheFilePermissions() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("a.http", "GET https://x/a\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try CollectionWriter.save("GET https://x/b\n", over: try CollectionLoader.loadFile(url, displayPath: "a.http"))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func loadingAMissingPathIsADiagnostic() {
        let collection = CollectionLoader.load("/nonexistent/courier/x.http")
        #expect(collection.files.isEmpty)
        #expect(collection.errors.map(\.message) == ["no such file or folder"])
    }
}

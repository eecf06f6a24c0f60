import CourierSecurity
import CourierTestSupport
import Foundation
import Testing

/// `AtomicFile`: the one way Courier writes a file whole, private from its first byte.
@Suite struct AtomicFileTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    private func mode(_ url: URL) -> mode_t {
        var status = stat()
        stat(url.path, &status)
        return status.st_mode & 0o777
    }

    @Test func aPrivateFileIsWrittenWholeWithItsModeAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("entry.json")
        try AtomicFile.write(Data("first".utf8), to: file, mode: 0o600)
        try AtomicFile.write(Data("second".utf8), to: file, mode: 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == "second")
        #expect(mode(file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["entry.json"])
    }

    @Test func withoutAModeTheReplacedFilesModeIsKept() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("api.http")
        try Data("GET /\n".utf8).write(to: file)
        chmod(file.path, 0o640)
        try AtomicFile.write(Data("GET /v2\n".utf8), to: file, sync: true)
        #expect(mode(file) == 0o640)
        #expect(try String(contentsOf: file, encoding: .utf8) == "GET /v2\n")
    }

    @Test func creatingNeverOpensAnExistingFileOrALink() throws {
        let folder = try TemporaryFolder()
        let target = folder.url.appendingPathComponent("elsewhere")
        try Data("keep".utf8).write(to: target)
        let link = folder.url.appendingPathComponent("body")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: AtomicFile.Failure.self) { _ = try AtomicFile.create(link, mode: 0o600) }
        #expect(throws: AtomicFile.Failure.self) { _ = try AtomicFile.create(target, mode: 0o600) }
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
    }

    @Test func aFailedWriteNamesTheFileAndLeavesNothing() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("missing/history.json")
        #expect {
            try AtomicFile.write(Data("x".utf8), to: file, mode: 0o600)
        } throws: { error in
            (error as? AtomicFile.Failure)?.path.hasSuffix("missing/history.json") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// Foundation's `createFile(atPath:contents:attributes:)` and `Data.write(options: .atomic)` create the
    /// file with the default mode (0644 here) and change it after the bytes are in: history entries were
    /// readable by everyone while being written. Every whole-file write goes through `AtomicFile`.
    @Test func noSourceWritesAWholeFileAnotherWay() throws {
        let enumerator = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        var offenders: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", url.lastPathComponent != "AtomicFile.swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for pattern in ["createFile(atPath", "options: .atomic", "atomically: true"] where text.contains(pattern) {
                offenders.append("\(url.lastPathComponent): \(pattern)")
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}

import Foundation
import Testing
@testable import CourierBody

@Suite struct BodyDocumentTests {
    /// A body of `count` numbered lines, so the expected text of any line is known.
    static func numberedBody(_ count: Int) -> Data {
        var text = ""
        for index in 0..<count { text += "line \(index) of the body\n" }
        return Data(text.utf8)
    }

    @Test func linesAtTheStartMiddleAndEndOfALargeBodyMatchTheirSnapshots() {
        // Given a body of 300,000 lines (about 7 MB)
        let document = BodyDocument(data: Self.numberedBody(300_000))
        // When the first screen is read before the index is complete
        let first = (0..<3).map { document.line($0) }
        // Then it is ready and the rest is indexed only on demand
        #expect(first == ["line 0 of the body", "line 1 of the body", "line 2 of the body"])
        #expect(!document.isComplete)
        // When indexing finishes
        document.indexAll()
        #expect(document.isComplete)
        #expect(document.lineCount == 300_000)
        #expect((150_000..<150_002).map { document.line($0) } == ["line 150000 of the body", "line 150001 of the body"])
        #expect(document.line(299_999) == "line 299999 of the body")
        #expect(document.line(300_000) == "")
    }

    @Test func invalidUTF8IsShownAsReplacementMarksNeverDropped() {
        // Given bytes with an invalid sequence in the middle of a line
        let document = BodyDocument(data: Data([0x61, 0xFF, 0xFE, 0x62, 0x0A, 0x63]))
        // When the lines are read
        // Then each bad byte becomes U+FFFD and the last line without newline is counted
        #expect(document.line(0) == "a\u{FFFD}\u{FFFD}b")
        #expect(document.line(1) == "c")
        #expect(document.lineCount == 2)
    }

    @Test func aLineLongerThanTheCapIsCutWithANoteSayingHowMuchIsLeft() {
        // Given one line of 100,000 characters
        let document = BodyDocument(data: Data(String(repeating: "x", count: 100_000).utf8))
        // When it is read
        let line = document.line(0)
        // Then only the cap is materialised and the rest is summarised
        #expect(line.hasPrefix(String(repeating: "x", count: LineLimits.maxLineBytes)))
        #expect(line.hasSuffix("[+\(100_000 - LineLimits.maxLineBytes) bytes]"))
    }

    @Test func aStreamingBodyGrowsItsIndexAsChunksArrive() {
        // Given a body that is still arriving
        let document = BodyDocument(data: Data("one\ntw".utf8), complete: false)
        document.indexAll()
        #expect(document.lineCount == 2)
        #expect(document.line(1) == "tw")
        // When the rest arrives
        document.append(Data("o\nthree\n".utf8))
        document.finish()
        document.indexAll()
        // Then the partial line is completed and new lines appear
        #expect(document.lineCount == 3)
        #expect((0..<3).map { document.line($0) } == ["one", "two", "three"])
        #expect(document.line(containingByte: 5) == 1)
    }

    @Test func aBodyOnDiskIsMappedAndReadThroughTheSameIndex() throws {
        // Given a body in a temporary file with CRLF line ends
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-body-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body")
        try Data("alpha\r\nbeta\r\n".utf8).write(to: file)
        // When it is opened
        let document = try BodyDocument(contentsOf: file)
        document.indexAll()
        // Then lines read without their CR
        #expect(document.lineCount == 2)
        #expect(document.line(0) == "alpha")
        #expect(document.line(1) == "beta")
    }

    @Test func aMissingFileIsAnErrorNamingThePath() {
        #expect(throws: BodyError.self) { try BodyDocument(contentsOf: URL(fileURLWithPath: "/nonexistent/courier")) }
    }
}

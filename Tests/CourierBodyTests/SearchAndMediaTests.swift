import Foundation
import Testing
@testable import CourierBody

@Suite struct SearchAndMediaTests {
    @Test func searchFindsEveryMatchIncludingOnTheLastLineAndJumpsBetweenThem() async throws {
        // Given a large body whose last line holds a unique word
        let text = (0..<50_000).map { "row \($0) Value" }.joined(separator: "\n") + "\nthe NEEDLE at the end"
        let document = BodyDocument(data: Data(text.utf8))
        // When searching case-insensitively
        let search = try BodySearch(SearchQuery("needle"), in: document)
        await search.wait()
        // Then the hit is on the last line, with its columns
        #expect(search.isFinished)
        #expect(search.hits == [SearchHit(line: 50_000, columns: 4..<10)])
        #expect(search.next(after: SearchHit(line: 0, columns: 0..<0))?.line == 50_000)
        // And a regex finds many, with next/previous wrapping
        let regex = try BodySearch(SearchQuery("row 4999[0-9]", isRegex: true), in: document)
        await regex.wait()
        #expect(regex.hits.map(\.line) == Array(49_990..<50_000))
        #expect(regex.next(after: regex.hits.last!)?.line == 49_990)
        #expect(regex.previous(before: regex.hits.first!)?.line == 49_999)
        #expect(regex.hits(onLine: 49_995) == [SearchHit(line: 49_995, columns: 0..<9)])
    }

    @Test func aCancelledSearchStopsAndIsNotFinished() async throws {
        let document = BodyDocument(data: Data(String(repeating: "abc\n", count: 2_000_000).utf8))
        let search = try BodySearch(SearchQuery("zzz"), in: document)
        search.cancel()
        await search.wait()
        #expect(!search.isFinished || search.hits.isEmpty)
    }

    @Test func anInvalidRegexIsAnError() {
        #expect(throws: BodyError.invalidPattern(pattern: "(")) {
            try BodySearch(SearchQuery("(", isRegex: true), in: BodyDocument(data: Data()))
        }
    }

    @Test func searchInPrettyJSONMatchesTheDisplayedLines() async throws {
        let document = PrettyJSONDocument(data: Data(#"{"a":{"name":"x"},"b":[1,2]}"#.utf8))
        let search = try BodySearch(SearchQuery(#""name": "x""#), in: document)
        await search.wait()
        #expect(search.hits == [SearchHit(line: 2, columns: 4..<15)])
    }

    @Test func hexDumpShowsOffsetHexAndASCII() {
        let dump = HexDump(data: Data([0x89, 0x50, 0x4E, 0x47] + Array("Hello, world!\u{1B}xyz".utf8)))
        #expect(dump.lineCount == 2)
        #expect(dump.line(0) == "00000000  89 50 4e 47 48 65 6c 6c  6f 2c 20 77 6f 72 6c 64  |.PNGHello, world|")
        #expect(dump.line(1) == "00000010  21 1b 78 79 7a                                    |!.xyz|")
    }

    @Test func mediaIsDetectedFromMagicNumbersAndContentType() {
        let png = MediaKind.detect(contentType: nil, prefix: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]))
        #expect(png.summary(byteCount: 1_258_291) == "image/png, 1.2 MB")
        #expect(MediaKind.detect(contentType: "application/octet-stream", prefix: Data("%PDF-1.7".utf8)).mimeType == "application/pdf")
        #expect(MediaKind.detect(contentType: nil, prefix: Data([0xFF, 0xD8, 0xFF, 0xE0])).category == .image)
        #expect(MediaKind.detect(contentType: "application/json; charset=utf-8", prefix: Data("{}".utf8)).category == .json)
        #expect(MediaKind.detect(contentType: "text/event-stream", prefix: Data()).category == .eventStream)
        #expect(MediaKind.detect(contentType: "application/x-ndjson", prefix: Data()).category == .ndjson)
        #expect(MediaKind.detect(contentType: nil, prefix: Data(" [1]".utf8)).category == .json)
        #expect(MediaKind.detect(contentType: nil, prefix: Data([0, 1, 2, 3, 4, 5])).isBinary)
        #expect(MediaKind.detect(contentType: nil, prefix: Data("plain \u{1B}]52;c;x\u{07} text".utf8)).category == .text)
    }
}

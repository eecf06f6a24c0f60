import Foundation
import Testing
@testable import CourierBody

@Suite struct SearchAndMediaTests {
    @Test func searchFindsEveryMatchIncludingOnTheLastLineAndJumpsBetweenThem() throws {
        // Given a large body whose last line holds a unique word
        let text = (0..<50_000).map { "row \($0) Value" }.joined(separator: "\n") + "\nthe NEEDLE at the end"
        let document = BodyDocument(data: Data(text.utf8))
        // When searching case-insensitively
        let hits = try BodySearch(SearchQuery("needle")).hits(in: document)
        // Then the hit is on the last line, with its columns
        #expect(hits.all == [SearchHit(line: 50_000, columns: 4..<10)])
        #expect(hits.next(after: SearchHit(line: 0, columns: 0..<0))?.line == 50_000)
        // And a regex finds many, with next/previous wrapping
        let regex = try BodySearch(SearchQuery("row 4999[0-9]", isRegex: true)).hits(in: document)
        #expect(regex.all.map(\.line) == Array(49_990..<50_000))
        #expect(regex.next(after: regex.all.last!)?.line == 49_990)
        #expect(regex.previous(before: regex.all.first!)?.line == 49_999)
        #expect(regex.onLine(49_995) == [SearchHit(line: 49_995, columns: 0..<9)])
        #expect(regex.position(of: SearchHit(line: 49_995, columns: 0..<9)) == 5)
        #expect(regex.position(of: SearchHit(line: 49_995, columns: 1..<9)) == nil)
    }

    @Test func aSearchReportsItsHitsStepByStepAndEndsFinished() throws {
        // Given a body several steps long with a match on every thousandth line
        let text = (0..<40_000).map { $0 % 1_000 == 0 ? "hit \($0)" : "row \($0)" }.joined(separator: "\n")
        let document = BodyDocument(data: Data(text.utf8))
        // When it is searched to the end
        var reports: [BodySearch.Progress] = []
        try BodySearch(SearchQuery("hit")).run(in: document, isCancelled: { false }) { reports.append($0) }
        // Then the steps' hits add up to every match, progress grows, and only the last report is finished
        #expect(reports.count > 2)
        #expect(reports.flatMap(\.hits).map(\.line) == Array(stride(from: 0, to: 40_000, by: 1_000)))
        #expect(reports.map(\.fraction) == reports.map(\.fraction).sorted())
        #expect(reports.map(\.isFinished) == Array(repeating: false, count: reports.count - 1) + [true])
    }

    @Test func aCancelledSearchStopsWithoutAFinishedReport() throws {
        let document = BodyDocument(data: Data(String(repeating: "abc\n", count: 2_000_000).utf8))
        var reports: [BodySearch.Progress] = []
        var steps = 0
        try BodySearch(SearchQuery("zzz")).run(in: document, isCancelled: { steps += 1; return steps > 3 }) {
            reports.append($0)
        }
        #expect(!reports.isEmpty)
        #expect(!reports.contains { $0.isFinished })
    }

    @Test func anInvalidRegexIsAnError() {
        #expect(throws: BodyError.invalidPattern(pattern: "(")) {
            try BodySearch(SearchQuery("(", isRegex: true))
        }
    }

    @Test func searchInPrettyJSONMatchesTheDisplayedLines() throws {
        let document = PrettyJSONDocument(data: Data(#"{"a":{"name":"x"},"b":[1,2]}"#.utf8))
        let hits = try BodySearch(SearchQuery(#""name": "x""#)).hits(in: document)
        #expect(hits.all == [SearchHit(line: 2, columns: 4..<15)])
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

    @Test func textAndBytesGetTheSameGuessThatTheyAreJSON() {
        // Given bodies that open an object or an array after whitespace, and some that do not
        let cases = ["{}", " \n\t[1]", "\r\n{\"a\": 1}", "", "   ", "x{}", "\"text\"", "1", "é{", "\u{FEFF}{}"]
        for text in cases {
            // When text and its bytes are guessed at
            let fromText = MediaKind.startsLikeJSON(text.utf8)
            let fromBytes = MediaKind.startsLikeJSON(Array(text.utf8))
            // Then both say the same, and only after whitespace alone comes `{` or `[`
            #expect(fromText == fromBytes, "\(text.debugDescription)")
            #expect(fromText == ["{}", " \n\t[1]", "\r\n{\"a\": 1}"].contains(text), "\(text.debugDescription)")
        }
    }
}

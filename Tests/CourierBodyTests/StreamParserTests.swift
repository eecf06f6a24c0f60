import Foundation
import Testing
@testable import CourierBody

@Suite struct StreamParserTests {
    static let stream = ": comment\nevent: tick\ndata: one\ndata: two\nid: 7\n\ndata: plain\r\nretry: 500\r\n\r\ndata\n\nid: 8\n\n"

    static func events(chunkSize: Int) -> [ServerSentEvent] {
        var parser = EventStreamParser()
        let bytes = Array(stream.utf8)
        var events: [ServerSentEvent] = []
        var index = 0
        while index < bytes.count {
            events += parser.feed(Data(bytes[index..<min(bytes.count, index + chunkSize)]))
            index += chunkSize
        }
        return events
    }

    @Test func eventsParseTheSameWhateverTheChunkBoundaries() {
        let whole = Self.events(chunkSize: 10_000)
        #expect(whole == [
            ServerSentEvent(type: "tick", data: "one\ntwo", id: "7", retry: nil),
            ServerSentEvent(type: "message", data: "plain", id: "7", retry: 500),
            ServerSentEvent(type: "message", data: "", id: "7", retry: nil),
        ])
        for size in [1, 2, 3, 7, 13] { #expect(Self.events(chunkSize: size) == whole) }
    }

    @Test func aMultiByteCharacterSplitAcrossChunksSurvives() {
        var parser = EventStreamParser()
        let bytes = Array("data: é\n\n".utf8)
        var events = parser.feed(Data(bytes[0..<7]))
        events += parser.feed(Data(bytes[7...]))
        #expect(events.map(\.data) == ["é"])
    }

    @Test func ndjsonRecordsSplitAtNewlinesWhateverTheChunks() {
        let text = "{\"a\":1}\n\n{\"a\":2}\r\n{\"a\":3}"
        for size in [1, 4, 100] {
            var splitter = NDJSONSplitter()
            var records: [Data] = []
            let bytes = Array(text.utf8)
            var index = 0
            while index < bytes.count {
                records += splitter.feed(Data(bytes[index..<min(bytes.count, index + size)]))
                index += size
            }
            records += splitter.finish()
            #expect(records.map { String(decoding: $0, as: UTF8.self) } == [#"{"a":1}"#, #"{"a":2}"#, #"{"a":3}"#])
        }
    }

    /// Linear assembly: a 32 MB line in 1 KB chunks used to be copied whole on every chunk (quadratic:
    /// half a terabyte of copying); now each byte is appended once. The limit only stops a regression
    /// from hanging the suite, it measures nothing.
    @Test(.timeLimit(.minutes(1)))
    func oneHugeNDJSONLineInSmallChunksIsAssembledOnceAndWhole() {
        // Given a 32 MB line followed by a short one, arriving 1 KB at a time
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1_024)
        var splitter = NDJSONSplitter()
        var records: [Data] = []
        // When it is fed chunk by chunk
        for _ in 0..<32_768 { records += splitter.feed(chunk) }
        records += splitter.feed(Data("\r\n{\"b\":2}\n".utf8))
        records += splitter.finish()
        // Then both records come out, the huge one whole and without its CR
        #expect(records.count == 2)
        #expect(records.first?.count == 32 << 20)
        #expect(records.first?.allSatisfy { $0 == UInt8(ascii: "a") } == true)
        #expect(records.last == Data(#"{"b":2}"#.utf8))
    }

    @Test func anEventLineOrDataPastTheLimitStopsTheParserAndKeepsTheEventsBefore() {
        // Given a 100-byte limit: an event that fits, then a line that does not
        var parser = EventStreamParser(maxRecordSize: 100)
        let before = parser.feed(Data("data: fits\n\ndata: \(String(repeating: "x", count: 60))".utf8))
        #expect(before.map(\.data) == ["fits"] && !parser.exceededLimit)
        #expect(parser.feed(Data(String(repeating: "x", count: 60).utf8)).isEmpty)
        #expect(parser.exceededLimit)
        #expect(parser.feed(Data("\n\ndata: late\n\n".utf8)).isEmpty, "nothing is taken after the limit")
        // And short data lines that add up past it, with no blank line, stop it too
        var lines = EventStreamParser(maxRecordSize: 100)
        _ = lines.feed(Data(String(repeating: "data: 0123456789\n", count: 12).utf8))
        #expect(lines.exceededLimit)
    }

    @Test func anNDJSONLinePastTheLimitStopsTheSplitterAndKeepsTheRecordsBefore() {
        var splitter = NDJSONSplitter(maxRecordSize: 10)
        #expect(splitter.feed(Data("{\"a\":1}\n{\"b\":".utf8)) == [Data("{\"a\":1}".utf8)])
        #expect(!splitter.exceededLimit)
        #expect(splitter.feed(Data("\"long value\"}\n".utf8)).isEmpty)
        #expect(splitter.exceededLimit)
        #expect(splitter.finish().isEmpty)
        // A whole line in one chunk counts the same
        var whole = NDJSONSplitter(maxRecordSize: 10)
        #expect(whole.feed(Data("{\"b\":\"long value\"}\n".utf8)).isEmpty && whole.exceededLimit)
    }
}

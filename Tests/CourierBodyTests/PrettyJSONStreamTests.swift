import Foundation
import Testing
@testable import CourierBody

/// The streaming adapter lays JSON out exactly as the lazy document does, whatever the chunks it is fed.
@Suite struct PrettyJSONStreamTests {
    /// The document's lines joined as the stream writes them.
    static func documentText(_ text: String) -> String {
        PrettyJSONDocumentTests.pretty(text).joined(separator: "\n")
    }

    /// The stream's text for `text` fed `size` bytes at a time.
    static func streamed(_ text: String, chunk size: Int, maxPendingBytes: Int = PrettyJSONStream.defaultMaxPendingBytes)
        -> (text: String, stream: PrettyJSONStream) {
        var stream = PrettyJSONStream(maxPendingBytes: maxPendingBytes)
        let bytes = Array(text.utf8)
        var output = Data()
        for start in stride(from: 0, to: bytes.count, by: size) {
            output += stream.feed(Data(bytes[start..<min(bytes.count, start + size)]))
        }
        output += stream.finish()
        return (String(decoding: output, as: UTF8.self), stream)
    }

    static let samples = [
        #"{"a":1,"b":[true,null,{}],"c":{"d":"x"},"e":[],"f":-1.5e3,"g":"q\"uo\\te \u00e9"}"#,
        "  [ { \"k\" : [ [ ], { } ] } , 12 , \"é—🙂\" , false ]  ",
        #"{"a":{"b":{"c":{"d":[1,[2,[3]]]}}}}"#,
        "{\"a\":1}\n{\"a\":2}\n[3]\n",
        "42",
        #""just a string""#,
    ]

    @Test(arguments: samples)
    func everyChunkSizeGivesTheDocumentsLayout(text: String) {
        // Given a JSON body and the lazy document's layout of it
        let expected = Self.documentText(text)
        // When it is fed to the stream in chunks of every size, down to one byte (cutting tokens,
        // escapes and multi-byte characters)
        for size in [1, 2, 3, 5, 7, 16, text.utf8.count] {
            let (output, stream) = Self.streamed(text, chunk: size)
            // Then the text is the same, and nothing failed
            #expect(output == expected, "chunks of \(size)")
            #expect(stream.failure == nil)
        }
    }

    @Test func invalidInputShowsTheValidPrefixThenTheRestAsItCame() {
        // Given a body that stops being JSON in the middle
        let text = "{\"a\": [1, oops\n  rest\tof it\n"
        for size in [1, 4, text.utf8.count] {
            // When it is streamed
            let (output, stream) = Self.streamed(text, chunk: size)
            // Then the valid lines are laid out, and the rest follows byte for byte
            #expect(output == "{\n  \"a\": [\n    1,\noops\n  rest\tof it\n", "chunks of \(size)")
            #expect(stream.failure?.offset == 10)
        }
    }

    @Test func aLineLongerThanTheLimitEndsTheLayoutAndPassesThrough() {
        // Given a string value longer than the most the stream may hold for one line
        let long = String(repeating: "x", count: 300)
        let text = #"{"a": 1, "b": ""# + long + #"", "c": 2}"#
        // When it is streamed with a 100-byte limit
        let (output, stream) = Self.streamed(text, chunk: 10, maxPendingBytes: 100)
        // Then the lines before it are laid out and everything from its start passes through unchanged
        #expect(output == "{\n  \"a\": 1,\n" + #" "b": ""# + long + #"", "c": 2}"#)
        #expect(stream.failure == nil)
    }

    @Test func indentationStopsGrowingAtTheCapAndSaysSo() {
        // Given 10,000 nested arrays
        let depth = 10_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        // When they are streamed
        let (output, stream) = Self.streamed(text, chunk: 4_096)
        // Then every level has its line, none is indented past the cap, and the stream noticed
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 * depth - 1)
        #expect(lines.map { $0.prefix { $0 == " " }.count }.max() == LineLimits.maxIndentLevels * 2)
        #expect(stream.flattened)
        #expect(!Self.streamed("[[1]]", chunk: 1).stream.flattened)
    }

    @Test func formatLaysOutWholeJSONAndRefusesTheRest() throws {
        let (text, flattened) = try #require(PrettyJSONStream.format(Data(#"{"a":[1,2]}"#.utf8)))
        #expect(String(decoding: text, as: UTF8.self) == "{\n  \"a\": [\n    1,\n    2\n  ]\n}")
        #expect(!flattened)
        #expect(PrettyJSONStream.format(Data(#"{"a":"#.utf8)) == nil)
        #expect(PrettyJSONStream.format(Data("<html>".utf8)) == nil)
    }

    /// The bytes `courier run` writes are `format`'s, for a small body and for one larger than the room made
    /// for it up front.
    @Test func formatBytesLaysOutTheSameBytesAsFormat() throws {
        let large = "[" + (0..<20_000).map { #"{"k":\#($0),"s":"v"}"# }.joined(separator: ",") + "]"
        for json in [#"{"id":1,"name":"courier"}"#, large, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"] {
            let (text, flattened) = try #require(PrettyJSONStream.format(Data(json.utf8)))
            let (bytes, bytesFlattened) = try #require(PrettyJSONStream.formatBytes(Data(json.utf8)))
            #expect(Data(bytes) == text)
            #expect(bytesFlattened == flattened)
        }
        #expect(PrettyJSONStream.formatBytes(Data(#"{"a":"#.utf8)) == nil)
    }

    @Test func colouredLinesOfACutStartHoldOnlyWholeLines() {
        // Given the first bytes of a longer message, cut inside a string
        let start = Data(#"{"id":7,"name":"long na"#.utf8)
        // When laid out as not final, and as final
        let cut = PrettyJSONStream.coloredLines(start, isFinal: false)
        let whole = PrettyJSONStream.coloredLines(start, isFinal: true, limit: 10)
        // Then the cut line is left out, or shown as the rest of the input, and tokens keep their roles
        #expect(cut.map(\.text) == ["{", #"  "id": 7,"#])
        #expect(cut[1].role(at: 2) == .key)
        #expect(cut[1].role(at: 8) == .number)
        #expect(whole.map(\.text) == ["{", #"  "id": 7,"#, #"  "name": "#, #""long na"#])
        #expect(PrettyJSONStream.coloredLines(start, limit: 1).count == 1)
    }
}

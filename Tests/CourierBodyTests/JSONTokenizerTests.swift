import Foundation
import Testing
@testable import CourierBody

/// Tokenizes a whole string, returning kinds and token texts.
func tokens(_ text: String, isFinal: Bool = true) -> [(JSONTokenKind, String)] {
    let data = Data(text.utf8)
    return data.withUnsafeBytes { bytes in
        var tokenizer = JSONTokenizer()
        var out: [(JSONTokenKind, String)] = []
        while let token = tokenizer.next(in: bytes, isFinal: isFinal) {
            out.append((token.kind, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)))
        }
        return out
    }
}

@Suite struct JSONTokenizerTests {
    @Test func anObjectBecomesKeysValuesAndPunctuationWithTheirByteRanges() {
        let result = tokens(#"{"a": [1, -2.5e3, true, null], "b": "x\"y"}"#)
        #expect(result.map(\.0) == [.beginObject, .key, .colon, .beginArray, .number, .comma, .number, .comma,
                                    .literal, .comma, .literal, .endArray, .comma, .key, .colon, .string, .endObject])
        #expect(result[6].1 == "-2.5e3")
        #expect(result[15].1 == #""x\"y""#)
    }

    @Test func tenThousandLevelsOfNestingTokenizeWithoutRecursion() {
        // Given arrays nested 10,000 deep
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        // When tokenized
        let result = tokens(text)
        // Then every bracket is a token and nothing is invalid
        #expect(result.count == 20_000)
        #expect(!result.contains { $0.0 == .invalid })
    }

    @Test func aHugeStringIsOneToken() {
        let big = String(repeating: "é\\n\\u00e9", count: 200_000)
        let result = tokens("[\"\(big)\"]")
        #expect(result.map(\.0) == [.beginArray, .string, .endArray])
        #expect(result[1].1.utf8.count == big.utf8.count + 2)
    }

    @Test func invalidInputYieldsOneInvalidTokenCoveringTheRestAndItsPosition() {
        // Given JSON broken after a valid prefix
        let data = Data(#"{"a": 1, "b": tru, "c": 3}"#.utf8)
        data.withUnsafeBytes { bytes in
            var tokenizer = JSONTokenizer()
            var kinds: [JSONTokenKind] = []
            var last: JSONToken?
            while let token = tokenizer.next(in: bytes) { kinds.append(token.kind); last = token }
            // Then the valid prefix is tokenized and the rest is one invalid token
            #expect(kinds == [.beginObject, .key, .colon, .number, .comma, .key, .colon, .invalid])
            #expect(last?.range == 14..<data.count)
            #expect(tokenizer.failure?.offset == 14)
        }
    }

    @Test(arguments: [#"{"a" 1}"#, "[1,]", "[01]", #"["\x"]"#, "{", "]", "nul", "[1 2]", #"{"a":1,}"#, "-", "1.", "[1e]"])
    func malformedDocumentsEndInAnInvalidToken(_ text: String) {
        #expect(tokens(text).last?.0 == .invalid)
    }

    @Test func consecutiveTopLevelValuesAreAllTokenized() {
        #expect(tokens("{\"a\":1}\n{\"a\":2}\n").map(\.0) == [.beginObject, .key, .colon, .number, .endObject,
                                                              .beginObject, .key, .colon, .number, .endObject])
    }

    @Test func aTokenCutByTheEndOfAChunkWaitsForMoreInsteadOfFailing() {
        // Given the first chunk of a body still arriving, ending inside a string
        let first = Data(#"[123, "abc"#.utf8)
        var tokenizer = JSONTokenizer()
        let early = first.withUnsafeBytes { bytes in
            var kinds: [JSONTokenKind] = []
            while let token = tokenizer.next(in: bytes, isFinal: false) { kinds.append(token.kind) }
            return kinds
        }
        // Then it stops before the cut token without failing
        #expect(early == [.beginArray, .number, .comma])
        #expect(tokenizer.failure == nil)
        // When the rest arrives, the same tokenizer resumes
        let whole = first + Data(#"def", 4]"#.utf8)
        let late = whole.withUnsafeBytes { bytes in
            var kinds: [JSONTokenKind] = []
            while let token = tokenizer.next(in: bytes, isFinal: true) { kinds.append(token.kind) }
            return kinds
        }
        #expect(late == [.string, .comma, .number, .endArray])
    }
}

@Suite struct JSONTokenizerChunkTests {
    /// Tokenizes `text` fed in two parts (the first not final) and returns the failure offset, if any.
    static func chunkedFailure(_ text: String, split: Int) -> Int? {
        let data = Data(text.utf8)
        var tokenizer = JSONTokenizer()
        data.withUnsafeBytes { bytes in
            let head = UnsafeRawBufferPointer(rebasing: bytes[0..<split])
            while tokenizer.next(in: head, isFinal: false) != nil {}
            while tokenizer.next(in: bytes, isFinal: true) != nil {}
        }
        return tokenizer.failure?.offset
    }

    @Test(arguments: ["[truex]", "[tx]", "[12e]", "[\"a\\u12\"]", "[true, nul]", "{\"a\":1}"])
    func feedingInTwoChunksFailsExactlyWhereOneChunkDoes(_ text: String) {
        var single = JSONTokenizer()
        Data(text.utf8).withUnsafeBytes { bytes in while single.next(in: bytes) != nil {} }
        let whole = single.failure?.offset
        for split in 0...text.utf8.count { #expect(Self.chunkedFailure(text, split: split) == whole) }
    }

    @Test("One value, blanks around it allowed, is JSON; two values, trailing text, broken or empty input is not")
    func holdsOneValueAcceptsExactlyOneValue() {
        func holds(_ text: String) -> Bool { Data(text.utf8).withUnsafeBytes(JSONTokenizer.holdsOneValue) }
        for text in ["{}", "[]", " {\"a\": [1, true, null]} ", "[1, {\"x\": \"\\u00e9\"}]\t", "\"text\"", "42"] {
            #expect(holds(text), "\(text)")
        }
        for text in ["", " ", "{}{}", "{\"a\":1} x", "[1,2", "{\"a\":}", "{\"a\":\"\\q\"}", "[1] [2]"] {
            #expect(!holds(text), "\(text)")
        }
    }
}

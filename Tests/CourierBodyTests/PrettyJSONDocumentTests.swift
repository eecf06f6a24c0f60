import Foundation
import Testing
@testable import CourierBody

@Suite struct PrettyJSONDocumentTests {
    static func pretty(_ text: String) -> [String] {
        let document = PrettyJSONDocument(data: Data(text.utf8))
        document.indexAll()
        return (0..<document.lineCount).map { document.line($0) }
    }

    @Test func minifiedJSONIsPrettyPrintedWithEmptyContainersOnOneLine() {
        #expect(Self.pretty(#"{"a":1,"b":[true,null,{}],"c":{"d":"x"},"e":[]}"#) == [
            "{",
            #"  "a": 1,"#,
            #"  "b": ["#,
            "    true,",
            "    null,",
            "    {}",
            "  ],",
            #"  "c": {"#,
            #"    "d": "x""#,
            "  },",
            #"  "e": []"#,
            "}",
        ])
    }

    @Test func tokensCarryColourRoles() {
        let document = PrettyJSONDocument(data: Data(#"{"k":"v","n":1,"t":true}"#.utf8))
        let line = document.coloredLine(1)
        #expect(line.text == #"  "k": "v","#)
        #expect(line.role(at: 2) == .key)
        #expect(line.role(at: 5) == .punctuation)
        #expect(line.role(at: 7) == .string)
        #expect(document.coloredLine(2).role(at: 7) == .number)
        #expect(document.coloredLine(3).role(at: 7) == .literal)
    }

    @Test func theFirstScreenOfALargeMinifiedBodyNeedsNoFullPass() {
        // Given a one-line array of 200,000 objects
        let body = Data(("[" + (0..<200_000).map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]").utf8)
        let document = PrettyJSONDocument(data: body)
        // When the first lines are read
        #expect((0..<4).map { document.line($0) } == ["[", "  {", #"    "id": 0"#, "  },"])
        // Then only a little of the body was formatted
        #expect(!document.isComplete)
        #expect(document.lineCount < 1_000)
        // When indexing completes, the middle and the end are reachable
        document.indexAll()
        #expect(document.lineCount == 200_000 * 3 + 2)
        #expect(document.line(300_002) == #"    "id": 100000"#)
        #expect(document.line(document.lineCount - 1) == "]")
        #expect(document.line(document.lineCount - 2) == "  }")
        #expect(document.line(containingByte: body.count - 5) == document.lineCount - 3)
    }

    @Test func invalidJSONShowsTheValidPrefixThenTheRestAsText() {
        let lines = Self.pretty("{\"a\": [1, oops\nrest of it")
        #expect(lines == ["{", #"  "a": ["#, "    1,", "oops", "rest of it"])
        let document = PrettyJSONDocument(data: Data("[1, oops".utf8))
        document.indexAll()
        #expect(document.failure?.offset == 4)
        #expect(document.coloredLine(2).role(at: 0) == .invalid)
    }

    @Test func deepNestingIndentsUpToACapAndStillClosesEveryLevel() {
        let depth = 10_000
        let document = PrettyJSONDocument(data: Data((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8))
        document.indexAll()
        #expect(document.lineCount == depth * 2 + 1)
        #expect(document.line(depth) == String(repeating: " ", count: LineLimits.maxIndentLevels * 2) + "1")
        #expect(document.line(depth * 2) == "]")
    }

    @Test func foldRangesRunFromTheOpeningLineToItsClosingLine() {
        let document = PrettyJSONDocument(data: Data(#"{"a":{"b":[1,2]},"c":3}"#.utf8))
        #expect(document.foldRange(at: 0) == 0...8)
        #expect(document.foldRange(at: 1) == 1...6)
        #expect(document.foldRange(at: 2) == 2...5)
        #expect(document.foldRange(at: 3) == nil)
    }
}

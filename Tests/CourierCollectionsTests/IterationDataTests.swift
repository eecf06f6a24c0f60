import Foundation
import Testing
@testable import CourierCollections

/// Data files for `courier run --data`, read as newman reads them (CSV after RFC 4180, or a JSON array).
@Suite("Iteration data files")
struct IterationDataTests {
    func rows(_ text: String) throws -> [[String: String]] {
        try IterationData.rows(Data(text.utf8), file: "d.csv")
    }

    @Test func csvRecordsEndWithCRLFLFOrCRAndBlankLinesAreNotRecords() throws {
        #expect(try rows("a,b\r\n1,2\n\n3,4\r5,6") == [["a": "1", "b": "2"], ["a": "3", "b": "4"], ["a": "5", "b": "6"]])
    }

    @Test func aShortRecordLeavesTheRestEmptyAndColumnNamesAreTrimmed() throws {
        #expect(try rows(" a , b \n1\n") == [["a": "1", "b": ""]])
    }

    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() throws {
        #expect(try rows("a,b\n\"x, y\",\"say \"\"hi\"\"\nthen\"\n") == [["a": "x, y", "b": "say \"hi\"\nthen"]])
    }

    @Test func textAfterAClosingQuoteIsAnErrorAtItsLine() {
        #expect(throws: CollectionError.self) { try rows("a\n1\n\"x\"y\n") }
    }

    @Test func jsonValuesThatAreNotStringsAreTheirJSONText() throws {
        let data = Data(#"[{"n": 1.5, "ok": true, "list": [1, 2], "s": "t"}]"#.utf8)
        #expect(try IterationData.rows(data, file: "d.json") == [["n": "1.5", "ok": "true", "list": "[1,2]", "s": "t"]])
    }
}

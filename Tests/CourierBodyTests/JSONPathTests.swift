import Foundation
import Testing
@testable import CourierBody

@Suite struct JSONPathTests {
    static let document = try! JSONValue.parse(Data(#"""
    {"users": [
      {"id": 1, "name": "Ada", "age": 36, "email": "ada@example.com", "tags": ["a", "b"]},
      {"id": 2, "name": "Brian", "age": 25},
      {"id": 3, "name": "Cleo", "age": 41, "email": "cleo@example.com"}
    ], "meta": {"id": 99, "odd key": true, "count": 3}}
    """#.utf8))

    static func select(_ expression: String) throws -> [String] {
        try JSONPath(expression).evaluate(document).map(\.value.compactJSON)
    }

    @Test(arguments: [
        ("$.meta.count", ["3"]),
        ("$.users[*].name", [#""Ada""#, #""Brian""#, #""Cleo""#]),
        ("$..id", ["1", "2", "3", "99"]),
        ("$.users[0].name", [#""Ada""#]),
        ("$.users[-1].name", [#""Cleo""#]),
        ("$.users[1:3].id", ["2", "3"]),
        ("$.meta['odd key']", ["true"]),
        ("$.users[?(@.age > 30)].name", [#""Ada""#, #""Cleo""#]),
        ("$.users[?(@.age >= 25 && @.age < 40)].id", ["1", "2"]),
        ("$.users[?(@.age < 30 || @.id == 3)].id", ["2", "3"]),
        ("$.users[?(@.email)].id", ["1", "3"]),
        ("$.users[?(@.name == 'Brian')].age", ["25"]),
        ("$.users[?(@.name != 'Brian')].id", ["1", "3"]),
        ("$.users[0].tags[*]", [#""a""#, #""b""#]),
        ("$.missing", []),
        ("users[0].id", ["1"]),
        ("$.users[0,2].id", ["1", "3"]),
    ])
    func expressionsSelectTheExpectedValues(_ expression: String, _ expected: [String]) throws {
        #expect(try Self.select(expression) == expected)
    }

    @Test func matchesCarryTheirNormalisedPaths() throws {
        let paths = try JSONPath("$..id").evaluate(Self.document).map(\.path)
        #expect(paths == ["$.users[0].id", "$.users[1].id", "$.users[2].id", "$.meta.id"])
        #expect(try JSONPath("$.meta['odd key']").evaluate(Self.document).first?.path == "$.meta['odd key']")
    }

    @Test(arguments: ["$.", "$[", "$.users[?(@.age > )]", "$.users[0", "$['unclosed]", "$..", "$ x"])
    func malformedExpressionsAreErrorsWithAnOffset(_ expression: String) {
        #expect(throws: BodyError.self) { try JSONPath(expression) }
    }

    @Test func theFilterResultIsAPrettyDocumentOfTheMatches() throws {
        let body = Data(#"{"users":[{"name":"Ada"},{"name":"Brian"}]}"#.utf8)
        let (matches, document) = try JSONPath("$.users[*].name").filter(body)
        document.indexAll()
        #expect(matches.count == 2)
        #expect((0..<document.lineCount).map { document.line($0) } == ["[", #"  "Ada","#, #"  "Brian""#, "]"])
    }

    @Test func theParserDecodesEscapesAndKeepsKeyOrder() throws {
        let value = try JSONValue.parse(Data(#"{"z":"a\"b\u00e9\ud83d\ude00","a":[1.5e2,false,null]}"#.utf8))
        #expect(value.compactJSON == #"{"z":"a\"bé😀","a":[1.5e2,false,null]}"#)
        #expect(throws: BodyError.self) { try JSONValue.parse(Data("[1,]".utf8)) }
        #expect(throws: BodyError.self) { try JSONValue.parse(Data("1 2".utf8)) }
    }

    @Test func thePathOfTheValueOnAPrettyLineIsReadyToCopy() {
        let document = PrettyJSONDocument(data: Data(#"{"users":[{"id":1,"odd key":[true]}],"n":2}"#.utf8))
        // Lines: 0 {  1 "users": [  2 {  3 "id": 1,  4 "odd key": [  5 true  6 ]  7 }  8 ],  9 "n": 2  10 }
        #expect(document.path(atLine: 0) == "$")
        #expect(document.path(atLine: 1) == "$.users")
        #expect(document.path(atLine: 2) == "$.users[0]")
        #expect(document.path(atLine: 3) == "$.users[0].id")
        #expect(document.path(atLine: 4) == "$.users[0]['odd key']")
        #expect(document.path(atLine: 5) == "$.users[0]['odd key'][0]")
        #expect(document.path(atLine: 6) == "$.users[0]['odd key']")
        #expect(document.path(atLine: 9) == "$.n")
    }
}

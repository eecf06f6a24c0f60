import Foundation
import Testing
@testable import CourierBody

/// RFC 9535's functions in filters, in the tree evaluator and in the streaming pass over bytes alike.
@Suite("JSONPath functions: length, count, match, search, value")
struct JSONPathFunctionTests {
    static let text = #"""
    {"users": [
      {"id": 1, "name": "Ada", "tags": ["a", "b"], "email": "ada@example.com"},
      {"id": 2, "name": "Brian", "tags": [], "email": "brian@test.org"},
      {"id": 3, "name": "Cléo", "tags": ["c"], "address": {"city": "Lyon", "zip": "69001"}}
    ], "limit": 2}
    """#

    @Test(arguments: [
        ("$.users[?length(@.name) == 4].id", ["3"]),
        ("$.users[?length(@.tags) >= 1].id", ["1", "3"]),
        ("$.users[?length(@.address) == 2].id", ["3"]),
        ("$.users[?count(@.tags[*]) == 0].name", [#""Brian""#]),
        ("$.users[?count(@..*) > 6].id", ["3"]),
        ("$.users[?match(@.name, 'A.*')].id", ["1"]),
        ("$.users[?match(@.name, 'B')].id", []),
        ("$.users[?search(@.email, '@test\\.')].id", ["2"]),
        ("$.users[?!search(@.name, 'i')].id", ["1", "3"]),
        ("$.users[?value(@.address.city) == 'Lyon'].id", ["3"]),
        ("$.users[?length(@.tags) < $.limit].id", ["2", "3"]),
        ("$.users[?(@.id > 1 && match(@.name, '[A-Z][a-z]+'))].id", ["2"]),
        ("$.users[?length(@.missing) == 0].id", []),
    ])
    func functionsSelectAsTheRFCSays(_ expression: String, _ expected: [String]) throws {
        let path = try JSONPath(expression)
        let tree = path.evaluate(try JSONValue.parse(Data(Self.text.utf8))).map(\.value.compactJSON)
        #expect(tree == expected)
        let streamed = try path.evaluate(Data(Self.text.utf8)).map(\.value.compactJSON)
        #expect(streamed == expected)
    }

    @Test(arguments: [
        // I-Regexp (RFC 9485): `.` is any character but a line break, `^` and `$` are plain characters, and
        // what it lacks (\d, back-references, lookaround) makes the pattern invalid, so the test is false.
        ("$[?match(@, 'a.c')]", ["\"abc\""]),
        ("$[?search(@, '^x$')]", ["\"a^x$b\""]),
        ("$[?search(@, '\\\\d')]", [String]()),
        ("$[?match(@, '(?=a)abc')]", [String]()),
        ("$[?match(@, '[^a-b]x')]", ["\"cx\""]),
        ("$[?match(@, '\\\\p{Lu}.*')]", ["\"Zed\""]),
    ])
    func matchAndSearchTakeIRegexps(_ expression: String, _ expected: [String]) throws {
        let text = #"["abc", "a\nc", "a^x$b", "x", "123", "cx", "Zed"]"#
        let path = try JSONPath(expression)
        #expect(path.evaluate(try JSONValue.parse(Data(text.utf8))).map(\.value.compactJSON) == expected)
    }

    @Test func theSystemsPatternForAnIRegexp() {
        #expect(IRegexp.icuPattern("a.c") == "a[^\\n\\r]c")
        #expect(IRegexp.icuPattern("^a$") == "\\^a\\$")
        #expect(IRegexp.icuPattern("[.a-z]") == "[.a-z]")
        #expect(IRegexp.icuPattern("\\w") == nil)
        #expect(IRegexp.icuPattern("(a)\\1") == nil)
        #expect(IRegexp.icuPattern("[a[b]]") == nil)
        #expect(IRegexp.icuPattern("[]") == nil)
    }

    @Test(arguments: [
        ("$[?size(@) == 1]", "a function (length, count, match, search, value)"),
        ("$[?match(@.name)]", "2 arguments to match"),
        ("$[?length(@.a, @.b) == 1]", "1 argument to length"),
        ("$[?count @.a == 1]", "'(' after count"),
    ])
    func aFunctionWrittenWrongSaysWhatWasExpected(_ expression: String, _ expected: String) {
        #expect {
            _ = try JSONPath(expression)
        } throws: { error in
            guard case let BodyError.invalidPath(_, _, found) = error else { return false }
            return found == expected
        }
    }
}

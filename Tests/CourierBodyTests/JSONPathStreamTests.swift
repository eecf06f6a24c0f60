import Foundation
import Testing
@testable import CourierBody

/// The streaming evaluator against the tree evaluator: the same matches, paths and order, and the same errors.
@Suite struct JSONPathStreamTests {
    /// Expressions covering every selector, `..` before and after filters, several selectors, negative
    /// indices and slices, filters reading `$`, duplicate and escaped keys.
    static let expressions = [
        "$", "$.a", "$.a.b", "$..id", "$..*", "$.*", "$[*]", "$[0]", "$[1]", "$[-1]", "$[0:2]", "$[1:]",
        "$[::2]", "$[:-1]", "$[::-1]", "$[1:0]", "$[0:3:0]", "$..a..b", "$..a.b", "$..[0]", "$..[1:3]",
        "$[0,1]", "$[1,0]", "$[0,0]", "$['a','b']", "$['b','a']", "$..['a','id']", "$.a[*].b", "$..a[*]",
        "$[?(@.age > 30)]", "$..[?(@.age > 30)]", "$..[?(@.id)]", "$.*[?(@.a)]", "$[?(@.a)].b",
        "$..[?(@ == 1)]", "$[?(@.id == $[0].id)]", "$..[?(@.b == $.a)]", "$..a[-1]", "$.a..id", "$..*..id",
        "$..id..id", "$[0][0]", "$.*.*", "$..b[0,1]", "$[?(@.a || @.b)]..id", "a.b", "$..a[?(@.b)]",
        "$[0:2].a", "$..[*]", "$[*][1:3]", "$..['id']", "$..é", "$..[?(@.a)][0]", "$[?(!@.a)]",
        "$..[0,?(@.id > 2)]", "$..a[*][?(@ > 1)]", "$..['x','a'][-1:]",
    ]

    static func tree(_ path: JSONPath, _ data: Data) throws -> [String] {
        path.evaluate(try JSONValue.parse(data)).map { "\($0.path) = \($0.value.compactJSON)" }
    }

    static func streaming(_ path: JSONPath, _ data: Data) throws -> [String] {
        try path.evaluate(data).map { "\($0.path) = \($0.value.compactJSON)" }
    }

    @Test("Random small documents give the same matches, paths and order with both evaluators")
    func randomDocumentsAgreeWithTheTreeEvaluator() throws {
        // Given 400 random documents (a fixed seed, so a failure reproduces) and every expression
        var generator = RandomJSON(seed: 0x5EED_F11E)
        let paths = try Self.expressions.map { try JSONPath($0) }
        for _ in 0..<400 {
            let text = generator.document()
            let data = Data(text.utf8)
            for path in paths {
                // When both evaluate
                let expected = try Self.tree(path, data)
                let actual = try Self.streaming(path, data)
                // Then the results are identical
                #expect(actual == expected, "\(path.expression) on \(text)")
                if actual != expected { return }
            }
        }
    }

    @Test("A body fed in random pieces, as it arrives, gives the same matches as in one piece")
    func piecesAgreeWithOnePiece() throws {
        // Given 200 random documents, each cut at random points
        var generator = RandomJSON(seed: 0xC0FF_EE00)
        let paths = try ["$..*", "$..id", "$[?(@.a)]", "$.*[-1]", "$..a..b", "$['a','b'][0:2]"].map { try JSONPath($0) }
        for _ in 0..<200 {
            let data = Data(generator.document().utf8)
            var cuts = (0..<3).map { _ in generator.next(data.count + 1) }.sorted()
            cuts.append(data.count)
            for path in paths {
                // When the pieces are fed one after the other, only the last marked final
                var stream = JSONPathStream(path)
                let budget = 1 + generator.next(8)
                let failure: BodyError? = data.withUnsafeBytes { bytes in
                    do throws(BodyError) {
                        for cut in cuts {
                            let piece = UnsafeRawBufferPointer(rebasing: bytes[0..<cut])
                            // In small steps, as the background filter reads, up to where the piece ends.
                            var before = -1
                            while stream.offset != before, !stream.isFinished {
                                before = stream.offset
                                try stream.advance(piece, isFinal: cut == data.count, budget: budget)
                            }
                        }
                    } catch {
                        return error
                    }
                    return nil
                }
                #expect(failure == nil)
                // Then the matches are those of the whole body at once
                let pieces = stream.finish().map { "\($0.path) = \($0.value.compactJSON)" }
                #expect(pieces == (try Self.streaming(path, data)), "\(path.expression) cut at \(cuts)")
            }
        }
    }

    static let users = Data(#"""
    {"users": [
      {"id": 1, "name": "Ada", "age": 36, "friends": [{"id": 4}]},
      {"name": "Brian", "age": 25, "id": 2},
      {"id": 3, "name": "Cleo", "age": 41}
    ], "items": [10, 20, 30], "id": 99}
    """#.utf8)

    @Test("Named expressions select the expected values, as the tree evaluator does", arguments: [
        ("$.users[*].name", [#""Ada""#, #""Brian""#, #""Cleo""#]),
        // The root's own `id` first; then each user's, its friends' right after it (parents before members).
        ("$..id", ["99", "1", "4", "2", "3"]),
        ("$.users[?(@.age > 30)]", [#"{"id":1,"name":"Ada","age":36,"friends":[{"id":4}]}"#, #"{"id":3,"name":"Cleo","age":41}"#]),
        ("$.items[-1]", ["30"]),
    ])
    func namedExpressions(_ expression: String, _ expected: [String]) throws {
        // Given the users document and an expression
        let path = try JSONPath(expression)
        // When it is evaluated while streaming
        let values = try path.evaluate(Self.users).map(\.value.compactJSON)
        // Then the values are the expected ones, and the tree evaluator's
        #expect(values == expected)
        #expect(try Self.streaming(path, Self.users) == Self.tree(path, Self.users))
    }

    @Test("A filter on the root array's members materialises one member at a time")
    func rootArrayFilter() throws {
        // Given a root array of records
        let data = Data(("[" + (0..<50).map { #"{"id":\#($0),"age":\#(20 + $0)}"# }.joined(separator: ",") + "]").utf8)
        // When `$[?(@.age > 60)]` runs
        let matches = try JSONPath("$[?(@.age > 60)].id").evaluate(data)
        // Then the records past 40 are selected with their paths
        #expect(matches.map(\.value.compactJSON) == (41..<50).map { "\($0)" })
        #expect(matches.first?.path == "$[41].id")
    }

    @Test("Bodies that are not JSON end in the tree evaluator's error, with its position", arguments: [
        "", "   ", "[1,]", "1 2", #"{"a":}"#, "[1, 2", #"{"a" 1}"#, "tru", #"["\x"]"#, "[01]", #"{"a":[1,{"b":2}"#,
    ])
    func invalidBodies(_ body: String) throws {
        // Given a body that is not JSON
        let data = Data(body.utf8)
        // When both evaluators read it
        var treeError: BodyError?
        do { _ = try JSONValue.parse(data) } catch { treeError = error }
        var streamError: BodyError?
        do { _ = try JSONPath("$..a").evaluate(data) } catch { streamError = error }
        // Then both fail the same way
        #expect(treeError != nil)
        #expect(streamError == treeError)
    }

    @Test("Duplicate member names select the first member by name and every member by wildcard")
    func duplicateKeys() throws {
        // Given an object with a repeated key, also written with an escape
        let data = Data(#"{"a":1,"\u0061":2,"b":{"a":3,"a":4}}"#.utf8)
        for expression in ["$.a", "$..a", "$.*", "$.b.*", "$['a','a']"] {
            let path = try JSONPath(expression)
            // Then streaming agrees with the tree
            #expect(try Self.streaming(path, data) == Self.tree(path, data), "\(expression)")
        }
        #expect(try JSONPath("$..a").evaluate(data).map(\.value.compactJSON) == ["1", "3"])
    }

    @Test("Values matched inside other matches are taken as they complete, at any depth")
    func nestedMatches() throws {
        // Given arrays nested 500 deep around a number
        let data = Data((String(repeating: "[", count: 500) + "1" + String(repeating: "]", count: 500)).utf8)
        for expression in ["$..[0]", "$..*", "$..[?(@[0])]"] {
            // When a path matches at every level
            let path = try JSONPath(expression)
            let matches = try path.evaluate(data)
            // Then every level is a match, as in the tree evaluator
            #expect(matches.count >= 499, "\(expression)")
            #expect(try Self.streaming(path, data) == Self.tree(path, data), "\(expression)")
        }
    }

    @Test("The plan streams location selectors and stops after a filter or at a negative index")
    func planSplitsThePath() throws {
        #expect(JSONPathStreamPlan(try JSONPath("$.users[*].name").segments).rest.isEmpty)
        #expect(JSONPathStreamPlan(try JSONPath("$.items[-1]").segments).prefix.count == 1)
        #expect(JSONPathStreamPlan(try JSONPath("$[?(@.age > 30)].name").segments).prefix.count == 1)
        #expect(JSONPathStreamPlan(try JSONPath("$.a[?(@.b == $.c)]").segments).prefix.isEmpty)
    }
}

/// Small random JSON texts from a seeded generator: objects with few, often repeated keys (some written
/// with escapes), arrays, numbers, strings, booleans and null, with random whitespace.
struct RandomJSON {
    private var state: UInt64
    private static let keys = ["a", "b", "id", "age", "x", "é", "a b", "_2", "it's"]

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(bound))
    }

    mutating func document() -> String { value(depth: 0) }

    private mutating func space() -> String { next(4) == 0 ? " " : "" }

    private mutating func value(depth: Int) -> String {
        let kind = depth >= 4 ? 2 + next(4) : next(6)
        switch kind {
        case 0:
            let count = next(5)
            let members = (0..<count).map { _ in
                var key = Self.keys[next(Self.keys.count)]
                if key == "a", next(5) == 0 { key = #"\u0061"# }
                return space() + "\"\(key)\"" + space() + ":" + value(depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + space() + "}"
        case 1:
            return "[" + (0..<next(5)).map { _ in space() + value(depth: depth + 1) }.joined(separator: ",") + "]"
        case 2: return ["0", "1", "2", "31", "45", "-3", "1.5", "2e1"][next(8)]
        case 3: return ["\"a\"", "\"id\"", "\"\"", #""q\"t""#][next(4)]
        case 4: return ["true", "false"][next(2)]
        default: return next(2) == 0 ? "null" : String(next(100))
        }
    }
}

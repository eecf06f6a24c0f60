import Testing
@testable import CourierApp

/// The filter scores ASCII text byte by byte; it must score exactly as the walk over characters does.
@Suite("Fuzzy match: the ASCII path")
struct FuzzyMatchASCIITests {
    /// Deterministic strings over letters of both cases, digits, spaces and URL punctuation.
    static func strings(count: Int, seed: UInt64, length: ClosedRange<Int>) -> [String] {
        let alphabet = Array("aAbBcCeEgGrRsStT0123456789 /?=.-_{}")
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        return (0..<count).map { _ in
            String((0..<(length.lowerBound + next() % (length.count))).map { _ in alphabet[next() % alphabet.count] })
        }
    }

    @Test("on ASCII, the byte path gives the character path's score for every query and text")
    func asciiPathEqualsCharacterPath() {
        // Given many texts shaped like "GET name url" and short queries
        let texts = Self.strings(count: 400, seed: 7, length: 0...40)
        let queries = Self.strings(count: 60, seed: 11, length: 0...4) + ["GET", "get", "rEq 19", " ", "", "/1"]
        // Then both paths agree on every pair, matches and misses alike
        var mismatches: [String] = []
        for query in queries {
            for text in texts where FuzzyMatch.asciiScore(query, in: text) != FuzzyMatch.characterScore(query, in: text) {
                mismatches.append("\(query) in \(text)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("on ASCII, a prepared query ranks every request as the walk over characters does")
    func preparedQueryRanksAsTheCharacterPath() {
        // Given request names, methods and URLs with paths, queries and fragments, and queries with slashes,
        // spaces, tabs and capitals
        let names = Self.strings(count: 60, seed: 3, length: 0...12) + ["me", "Users", "getUser", ""]
        let paths = Self.strings(count: 60, seed: 5, length: 0...24)
        let urls = paths.map { "http://api.example.com/" + $0 } + [
            "{{base}}/users/me", "/Users/1?expand=me#top", "https://x.test/a//b/", "http://h/me?q=/me", "",
        ]
        let methods = ["GET", "POST", "DELETE"]
        let queries = Self.strings(count: 50, seed: 13, length: 0...5)
            + ["/me", "me", " Me ", "\tusers\t", "/", "users/", "GET /u", "A", ""]
        // Then the prepared query's rank equals the rank over characters for every request
        var mismatches: [String] = []
        for query in queries {
            let prepared = FuzzyMatch.RequestQuery(query)
            for (index, name) in names.enumerated() {
                let url = urls[index % urls.count], method = methods[index % methods.count]
                let fast = prepared.rank(name: name, method: method, url: url)
                let slow = FuzzyMatch.characterRank(query, needle: prepared.needle, bare: prepared.bare,
                                                    name: name, method: method, url: url)
                if fast?.tier != slow?.tier || fast?.score != slow?.score {
                    mismatches.append("\(query) for \(method) \(name) \(url): \(String(describing: fast)) \(String(describing: slow))")
                }
            }
        }
        #expect(mismatches.count == 0, "\(mismatches.prefix(3))")
        // And the needle is the query lowercased and trimmed, as before
        #expect(FuzzyMatch.RequestQuery(" /Me\t").needle == "/me")
        #expect(FuzzyMatch.RequestQuery(" /Me\t").bare == "me")
        #expect(FuzzyMatch.rank("/me", name: "whoami", method: "GET", url: "{{base}}/users/me")?.tier == 3)
        #expect(FuzzyMatch.rank("use", name: "whoami", method: "GET", url: "{{base}}/users/me")?.tier == 2)
        #expect(FuzzyMatch.rank("Café", name: "café menu", method: "GET", url: "/menu")?.tier == 2)
    }

    @Test("text beyond ASCII, or with a carriage return, takes the character path")
    func otherTextTakesTheCharacterPath() {
        #expect(FuzzyMatch.score("ca", in: "Café API") == FuzzyMatch.characterScore("ca", in: "Café API"))
        #expect(FuzzyMatch.score("ab", in: "a\r\nb") == FuzzyMatch.characterScore("ab", in: "a\r\nb"))
        #expect(FuzzyMatch.score("É", in: "éa") != nil)
    }
}

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

    @Test("text beyond ASCII, or with a carriage return, takes the character path")
    func otherTextTakesTheCharacterPath() {
        #expect(FuzzyMatch.score("ca", in: "Café API") == FuzzyMatch.characterScore("ca", in: "Café API"))
        #expect(FuzzyMatch.score("ab", in: "a\r\nb") == FuzzyMatch.characterScore("ab", in: "a\r\nb"))
        #expect(FuzzyMatch.score("É", in: "éa") != nil)
    }
}

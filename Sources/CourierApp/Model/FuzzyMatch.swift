import Foundation

/// Subsequence matching for the collection filter and the command palette: every query character must
/// appear in order; consecutive runs and word starts score higher.
public enum FuzzyMatch {
    /// A score (higher is better) when `query` matches `text`, nil when it does not. Case-insensitive.
    public static func score(_ query: String, in text: String) -> Int? {
        // Carriage returns aside, ASCII characters are single bytes: the same walk over bytes needs no arrays
        // of characters, and the collection filter scores every request on every key.
        if isPlainASCII(query) && isPlainASCII(text) { return asciiScore(query, in: text) }
        return characterScore(query, in: text)
    }

    /// `score` over ASCII text, byte by byte.
    static func asciiScore(_ query: String, in text: String) -> Int? {
        asciiScore(query.utf8.filter { $0 != 0x20 }.map(lowered), in: [text.utf8])
    }

    /// `score` of `needle` (ASCII, lowercased, no spaces) in the texts `parts` joined by single spaces, walked
    /// part by part so that a caller need not join them.
    static func asciiScore(_ needle: [UInt8], in parts: [String.UTF8View]) -> Int? {
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        guard !needle.isEmpty else { return 0 }
        var score = 0
        var index = 0
        var previousMatch = -2
        var position = 0
        var previous: UInt8 = 0
        func take(_ byte: UInt8) {
            if lowered(byte) == needle[index] {
                score += 1
                if position == previousMatch + 1 { score += 3 }
                if position == 0 || !isAlphanumeric(previous) { score += 2 }
                previousMatch = position
                index += 1
            }
            previous = byte
            position += 1
        }
        for (number, part) in parts.enumerated() {
            if number > 0 {
                if index == needle.count { break }
                take(0x20)
            }
            for byte in part {
                if index == needle.count { break }
                take(byte)
            }
        }
        return index == needle.count ? score : nil
    }

    /// `score` over characters, for any text.
    static func characterScore(_ query: String, in text: String) -> Int? {
        let needle = Array(query.lowercased().filter { $0 != " " })
        guard !needle.isEmpty else { return 0 }
        let haystack = Array(text.lowercased())
        var score = 0
        var index = 0
        var previousMatch = -2
        for (position, character) in haystack.enumerated() where index < needle.count {
            guard character == needle[index] else { continue }
            score += 1
            if position == previousMatch + 1 { score += 3 }
            if position == 0 || !(haystack[position - 1].isLetter || haystack[position - 1].isNumber) { score += 2 }
            previousMatch = position
            index += 1
        }
        return index == needle.count ? score : nil
    }

    /// How well `query` finds a request, best first: its name exactly, or a URL ending in it (`/me`);
    /// then a name or URL segment starting with it; then containing it; then a subsequence. Nil when
    /// it does not match at all.
    /// One request's rank; to rank many against one query, make a `RequestQuery` once.
    public static func rank(_ query: String, name: String, method: String, url: String) -> (tier: Int, score: Int)? {
        RequestQuery(query).rank(name: name, method: method, url: url)
    }
}

/// Subsequence matching for the collection filter and the command palette: every query character must
/// appear in order; consecutive runs and word starts score higher.
public enum FuzzyMatch {
    /// A score (higher is better) when `query` matches `text`, nil when it does not. Case-insensitive.
    public static func score(_ query: String, in text: String) -> Int? {
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
}

/// Picks the few known names closest to a mistyped one, so an error can suggest them without
/// printing every name of a large collection.
public enum NameSuggestions {
    /// At most `limit` names within a small edit distance of `name` (or sharing its start), closest first.
    public static func closest(to name: String, in names: [String], limit: Int = 3) -> [String] {
        let target = Array(name.lowercased().prefix(64))
        let allowed = max(2, target.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for candidate in names {
            let other = Array(candidate.lowercased().prefix(64))
            let prefixed = !target.isEmpty && (other.starts(with: target) || target.starts(with: other))
            let distance = prefixed ? 0 : editDistance(target, other, cap: allowed + 1)
            if distance <= allowed { scored.append((distance, candidate)) }
        }
        return scored.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(limit).map(\.name)
    }

    /// Levenshtein distance, stopping early once it exceeds `cap`.
    static func editDistance(_ a: [Character], _ b: [Character], cap: Int) -> Int {
        if abs(a.count - b.count) > cap { return cap + 1 }
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            var rowMinimum = current[0]
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j + 1])
            }
            if rowMinimum > cap { return cap + 1 }
            previous = current
        }
        return previous[b.count]
    }
}

/// A line diff by longest common subsequence, small enough for the compare pane's bodies. The body
/// branch's differ may replace it; this one keeps the pane free of that dependency.
public enum LineDiff {
    /// One line of the diff.
    public struct Line: Sendable, Hashable {
        /// Whether the line is in both texts, only the new one, or only the old one.
        public enum Kind: Sendable, Hashable { case same, added, removed }
        public var kind: Kind
        public var text: String
    }

    /// The table is lines(old) × lines(new); past this many cells the caller shows sizes instead.
    public static let maxCells = 4_000_000

    /// The lines of `old` and `new` as kept, removed and added, or nil when too large to diff.
    public static func diff(_ old: String, _ new: String) -> [Line]? {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Common head and tail need no table; only the middle is diffed.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        guard middleA.count * middleB.count <= maxCells else { return nil }

        // lengths[i][j]: LCS length of middleA[i...] and middleB[j...].
        let columns = middleB.count + 1
        var lengths = [Int](repeating: 0, count: (middleA.count + 1) * columns)
        for i in stride(from: middleA.count - 1, through: 0, by: -1) {
            for j in stride(from: middleB.count - 1, through: 0, by: -1) {
                lengths[i * columns + j] = middleA[i] == middleB[j]
                    ? lengths[(i + 1) * columns + j + 1] + 1
                    : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
            }
        }
        var result = a[..<prefix].map { Line(kind: .same, text: $0) }
        var i = 0
        var j = 0
        while i < middleA.count || j < middleB.count {
            if i < middleA.count, j < middleB.count, middleA[i] == middleB[j] {
                result.append(Line(kind: .same, text: middleA[i])); i += 1; j += 1
            } else if i < middleA.count,
                      j == middleB.count || lengths[(i + 1) * columns + j] >= lengths[i * columns + j + 1] {
                // Removals before additions, as diff tools print a changed line.
                result.append(Line(kind: .removed, text: middleA[i])); i += 1
            } else {
                result.append(Line(kind: .added, text: middleB[j])); j += 1
            }
        }
        result += a[(a.count - suffix)...].map { Line(kind: .same, text: $0) }
        return result
    }
}

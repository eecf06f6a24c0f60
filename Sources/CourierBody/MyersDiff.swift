/// Myers' O((N+M)·D) shortest edit script over any equatable elements. Common prefix and suffix are
/// trimmed first (most response diffs are a few changed values); past `maxEdits` the middle is reported
/// as wholly replaced rather than searched further, so two unrelated 50 MB bodies cannot stall the diff.
enum MyersDiff {
    /// One step of the edit script.
    enum Edit: Equatable {
        case equal(old: Int, new: Int)
        case delete(old: Int)
        case insert(new: Int)
    }

    static let maxEdits = 4_000

    static func edits<Element: Equatable>(_ old: [Element], _ new: [Element]) -> [Edit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        var result = (0..<prefix).map { Edit.equal(old: $0, new: $0) }
        result += middle(old, new, oldRange: prefix..<old.count - suffix, newRange: prefix..<new.count - suffix)
        result += (0..<suffix).map { Edit.equal(old: old.count - suffix + $0, new: new.count - suffix + $0) }
        return result
    }

    private static func middle<Element: Equatable>(_ old: [Element], _ new: [Element],
                                                   oldRange: Range<Int>, newRange: Range<Int>) -> [Edit] {
        let n = oldRange.count, m = newRange.count
        if n == 0 { return newRange.map { .insert(new: $0) } }
        if m == 0 { return oldRange.map { .delete(old: $0) } }
        let offset = n + m
        var v = [Int](repeating: 0, count: 2 * offset + 2)
        var trace: [[Int]] = []
        var found = false
        // The trace keeps one row per edit; bound it to about 64 MB of Ints as well as by `maxEdits`.
        let limit = min(offset, maxEdits, max(16, 8_000_000 / (2 * offset + 2)))
        outer: for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, old[oldRange.lowerBound + x] == new[newRange.lowerBound + y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n, y >= m { found = true; break outer }
            }
        }
        guard found else {
            return oldRange.map { .delete(old: $0) } + newRange.map { .insert(new: $0) }
        }
        // Walk the trace back from (n, m) to recover the path.
        var edits: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[offset + previousK]
            let previousY = d == 0 ? 0 : previousX - previousK
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                edits.append(.equal(old: oldRange.lowerBound + x, new: newRange.lowerBound + y))
            }
            if d > 0 {
                if x == previousX { edits.append(.insert(new: newRange.lowerBound + previousY)) }
                else { edits.append(.delete(old: oldRange.lowerBound + previousX)) }
            }
            x = previousX; y = previousY
        }
        return edits.reversed()
    }
}

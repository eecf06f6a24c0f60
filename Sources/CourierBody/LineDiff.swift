/// A line diff of two texts (Myers), as hunks for a unified view or rows for a side-by-side view, with
/// the changed words of modified lines marked.
public enum LineDiff {
    /// One line of a hunk.
    public struct Line: Sendable, Hashable {
        /// The kinds of this value.
        public enum Kind: Sendable, Hashable { case context, removed, added }
        public var kind: Kind
        /// 0-based line numbers in the old and new texts (nil on the side the line is absent from).
        public var oldLine: Int?
        public var newLine: Int?
        public var text: String
        /// Character ranges that differ from the paired line on the other side (modified lines only).
        public var changes: [Range<Int>] = []
    }

    /// A run of changes with context around it.
    public struct Hunk: Sendable, Hashable {
        public var oldStart: Int
        public var oldCount: Int
        public var newStart: Int
        public var newCount: Int
        public var lines: [Line]

        /// The `@@ -a,b +c,d @@` header (1-based, as `diff -u` prints it).
        public var header: String { "@@ -\(oldStart + 1),\(oldCount) +\(newStart + 1),\(newCount) @@" }
    }

    /// One row of a side-by-side view: the old line on the left, the new on the right.
    public struct Row: Sendable, Hashable {
        public var left: Line?
        public var right: Line?
    }

    /// The hunks turning `old` into `new`, with `context` unchanged lines around each change.
    public static func hunks(old: [String], new: [String], context: Int = 3) -> [Hunk] {
        group(lines(old: old, new: new), context: context)
    }

    /// Every line of both texts in order, kept, removed or added, for views that show the whole text.
    public static func lines(old: [String], new: [String]) -> [Line] {
        var lines: [Line] = MyersDiff.edits(old, new).map { edit in
            switch edit {
            case let .equal(o, n): Line(kind: .context, oldLine: o, newLine: n, text: old[o])
            case let .delete(o): Line(kind: .removed, oldLine: o, newLine: nil, text: old[o])
            case let .insert(n): Line(kind: .added, oldLine: nil, newLine: n, text: new[n])
            }
        }
        markWordChanges(&lines)
        return lines
    }

    /// Unified diff text: headers and lines prefixed with ' ', '-' or '+'.
    public static func unified(_ hunks: [Hunk]) -> [String] {
        hunks.flatMap { hunk in
            [hunk.header] + hunk.lines.map { line in
                switch line.kind {
                case .context: " " + line.text
                case .removed: "-" + line.text
                case .added: "+" + line.text
                }
            }
        }
    }

    /// Side-by-side rows of a hunk: context on both sides, removed lines paired with the added lines after them.
    public static func sideBySide(_ hunk: Hunk) -> [Row] {
        var rows: [Row] = []
        var removed: [Line] = [], added: [Line] = []
        func flush() {
            for index in 0..<max(removed.count, added.count) {
                rows.append(Row(left: index < removed.count ? removed[index] : nil, right: index < added.count ? added[index] : nil))
            }
            removed = []; added = []
        }
        for line in hunk.lines {
            switch line.kind {
            case .context: flush(); rows.append(Row(left: line, right: line))
            case .removed: if !added.isEmpty { flush() }; removed.append(line)
            case .added: added.append(line)
            }
        }
        flush()
        return rows
    }

    // MARK: Grouping

    private static func group(_ lines: [Line], context: Int) -> [Hunk] {
        let changed = lines.indices.filter { lines[$0].kind != .context }
        guard !changed.isEmpty else { return [] }
        var ranges: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(lines.count - 1, index + context)
            if let last = ranges.last, range.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return ranges.map { range in
            let slice = Array(lines[range])
            let oldStart = slice.first { $0.oldLine != nil }?.oldLine ?? (lines[..<range.lowerBound].last { $0.oldLine != nil }?.oldLine).map { $0 + 1 } ?? 0
            let newStart = slice.first { $0.newLine != nil }?.newLine ?? (lines[..<range.lowerBound].last { $0.newLine != nil }?.newLine).map { $0 + 1 } ?? 0
            return Hunk(oldStart: oldStart, oldCount: slice.filter { $0.oldLine != nil }.count,
                        newStart: newStart, newCount: slice.filter { $0.newLine != nil }.count, lines: slice)
        }
    }

    // MARK: Changed words

    /// Pairs each run of removed lines with the added run after it and marks the words that differ.
    private static func markWordChanges(_ lines: inout [Line]) {
        var index = 0
        while index < lines.count {
            guard lines[index].kind == .removed else { index += 1; continue }
            let removedStart = index
            while index < lines.count, lines[index].kind == .removed { index += 1 }
            let addedStart = index
            while index < lines.count, lines[index].kind == .added { index += 1 }
            let pairs = min(addedStart - removedStart, index - addedStart)
            for offset in 0..<pairs {
                let (old, new) = wordChanges(lines[removedStart + offset].text, lines[addedStart + offset].text)
                lines[removedStart + offset].changes = old
                lines[addedStart + offset].changes = new
            }
        }
    }

    /// Character ranges of the words that differ between two lines.
    static func wordChanges(_ old: String, _ new: String) -> ([Range<Int>], [Range<Int>]) {
        let oldWords = words(old), newWords = words(new)
        var oldChanges: [Range<Int>] = [], newChanges: [Range<Int>] = []
        for edit in MyersDiff.edits(oldWords.map(\.text), newWords.map(\.text)) {
            switch edit {
            case .equal: break
            case let .delete(o): append(oldWords[o].range, to: &oldChanges)
            case let .insert(n): append(newWords[n].range, to: &newChanges)
            }
        }
        return (oldChanges, newChanges)
    }

    private static func append(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        if let last = ranges.last, last.upperBound == range.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
        } else {
            ranges.append(range)
        }
    }

    /// Splits a line into words (letters, digits, `_`, `.`, `-`), runs of spaces and single symbols.
    private static func words(_ text: String) -> [(text: String, range: Range<Int>)] {
        var out: [(String, Range<Int>)] = []
        var current = ""
        var start = 0
        var kind = 0
        for (offset, character) in text.enumerated() {
            let characterKind = character.isLetter || character.isNumber || character == "_" || character == "." || character == "-" ? 1
                : character == " " ? 2 : 3
            if !current.isEmpty && (characterKind != kind || kind == 3) {
                out.append((current, start..<offset))
                current = ""
            }
            if current.isEmpty { start = offset; kind = characterKind }
            current.append(character)
        }
        if !current.isEmpty { out.append((current, start..<text.count)) }
        return out
    }
}

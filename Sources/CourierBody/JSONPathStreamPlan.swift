/// How a JSONPath splits for one streaming pass over a body: the leading `prefix` segments are matched
/// against the path of each value as the tokenizer walks past it, and `rest` is left to the tree
/// evaluator on each matched value alone. Only the prefix's last segment may hold filters: a filter
/// needs the candidate's value, so each candidate is materialised and tested once it has been read.
struct JSONPathStreamPlan: Sendable {
    let prefix: [JSONPath.Segment]
    let rest: [JSONPath.Segment]
    /// The member names the prefix selects, each given one bit in a frame's `seenNames`.
    let names: [String]
    /// Each name's UTF-8 bytes when it is ASCII (ASCII keys can then be compared without decoding).
    let asciiNames: [[UInt8]?]
    /// Integers in one route's ordering key (see `JSONPathStream`): the same for every route.
    let keyLength: Int

    /// At most this many distinct names are tracked per object (one bit each in a `UInt64`).
    static let maxNames = 64

    init(_ segments: [JSONPath.Segment]) {
        var count = 0
        var names: [String] = []
        // A filter that reads `$` needs the whole document: then nothing streams and the root is materialised.
        if !segments.contains(where: Self.readsRoot) {
            for segment in segments {
                let kinds = segment.selectors.map(Self.kind)
                guard !kinds.contains(.needsValue) else { break }
                let fresh = segment.selectors.compactMap { selector -> String? in
                    if case let .name(name) = selector, !names.contains(name) { return name }
                    return nil
                }
                guard names.count + Set(fresh).count <= Self.maxNames else { break }
                for name in fresh where !names.contains(name) { names.append(name) }
                count += 1
                // Nothing after a filter can be matched before the filtered value is known.
                if kinds.contains(.filter) { break }
            }
        }
        prefix = Array(segments[..<count])
        rest = Array(segments[count...])
        self.names = names
        asciiNames = names.map { name in name.utf8.allSatisfy { $0 < 0x80 } ? Array(name.utf8) : nil }
        keyLength = prefix.reduce(0) { sum, segment in
            sum + 1 + (segment.descendant ? 1 : 0) + (segment.selectors.count > 1 ? 1 : 0)
        }
    }

    /// What a selector needs to decide whether a child matches.
    enum Kind: Equatable {
        /// The child's key or index alone.
        case location
        /// The child's value (materialised, then tested).
        case filter
        /// The parent's size (negative indices and slices, reversed slices): left to the tree evaluator.
        case needsValue
    }

    static func kind(_ selector: JSONPath.Selector) -> Kind {
        switch selector {
        case .name, .wildcard: .location
        case let .index(index): index >= 0 ? .location : .needsValue
        case let .slice(start, end, step):
            (start ?? 0) >= 0 && (end ?? 0) >= 0 && (step ?? 1) > 0 ? .location : .needsValue
        case .filter: .filter
        }
    }

    /// Whether any filter in the segments reads the document root.
    static func readsRoot(_ segment: JSONPath.Segment) -> Bool {
        segment.selectors.contains { selector in
            if case let .filter(expression) = selector { return readsRoot(expression) }
            return false
        }
    }

    private static func readsRoot(_ expression: JSONPath.FilterExpression) -> Bool {
        switch expression {
        case let .or(left, right), let .and(left, right): readsRoot(left) || readsRoot(right)
        case let .not(inner): readsRoot(inner)
        case let .exists(operand): readsRoot(operand)
        case let .compare(left, _, right): readsRoot(left) || readsRoot(right)
        }
    }

    private static func readsRoot(_ operand: JSONPath.Operand) -> Bool {
        switch operand {
        case .root: true
        case let .current(segments): segments.contains(where: readsRoot)
        case .literal: false
        case let .function(_, arguments): arguments.contains(where: readsRoot)
        }
    }

    /// Whether `selector` selects the child at `ordinal` (its position in the parent) whose key, in an
    /// object, is name number `nameIndex` met for the first time (`firstName`). Filters count as
    /// selecting: their test waits for the value.
    static func selects(_ selector: JSONPath.Selector, ordinal: Int, inObject: Bool, nameIndex: Int?,
                        firstName: Bool, names: [String]) -> Bool {
        switch selector {
        case let .name(name):
            // The tree evaluator takes the first member of that name only.
            guard inObject, firstName, let nameIndex else { return false }
            return names[nameIndex] == name
        case .wildcard, .filter: return true
        case let .index(index): return !inObject && ordinal == index
        case let .slice(start, end, step):
            guard !inObject else { return false }
            let from = start ?? 0
            return ordinal >= from && (end.map { ordinal < $0 } ?? true) && (ordinal - from) % (step ?? 1) == 0
        }
    }
}

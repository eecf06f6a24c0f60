import Foundation

/// Evaluates a JSONPath in one pass over JSON bytes, keeping only the stack of open containers: the
/// plan's prefix is matched against each value's location as the tokenizer passes it, a matched value
/// (and only it) is built into a `JSONValue`, and the tree evaluator finishes the rest of the path on
/// it. Memory grows with the results, not the body. It can be fed a body still arriving and stopped
/// between calls, so a background filter can report progress and be cancelled.
///
/// The results equal `JSONPath.evaluate`'s, in the same order. That order is not document order (the
/// tree evaluator visits `..` parents before their members' members), so every route through the
/// prefix carries a key that sorts like the tree evaluator's lists: per segment the matched child's
/// offset, preceded by the selector's index when a segment has several selectors, and by the visited
/// parent's offset for `..`. Results are sorted by that key at the end, only when they came out of order.
struct JSONPathStream {
    private let plan: JSONPathStreamPlan
    private let includePaths: Bool
    private var tokenizer = JSONTokenizer()
    private var frames: [Frame] = []
    private var pendingKey: Range<Int>?
    /// Builds matched values from their tokens while any is open; the builder's outermost value is the
    /// first match still open, and values matched inside it are taken from it as they complete.
    private var builder = JSONValueBuilder()
    /// The matches whose values are being built, innermost last (values nest, so this is a stack).
    private var pending: [Pending] = []
    private var rootDone = false
    private var finished = false

    /// Result groups (one per route through the prefix): keys with `plan.keyLength` integers each, flat.
    private var keys: [Int] = []
    private var groupEnds: [Int] = []
    private var results: [JSONPathMatch] = []
    private var inOrder = true

    /// A partial route: segments of the prefix consumed so far and its ordering key.
    private struct Route {
        var consumed: Int
        var key: [Int]
        /// The filter the value must pass (a route through a filter selector).
        var condition: JSONPath.FilterExpression?
    }

    /// An open object or array.
    private struct Frame {
        var isObject: Bool
        var start: Int
        /// Where it sits in its parent: the member's key (objects) and its position.
        var key: Range<Int>?
        var ordinal: Int
        var routes: [Route]
        var children = 0
        /// Which of the plan's names this object's members have had so far (bit i: `plan.names[i]`).
        var seenNames: UInt64 = 0
    }

    private struct Pending {
        /// `frames.count` when the value started: the frame at this index, if any, is the value's own.
        var depth: Int
        var key: [Int]
        var path: String
        var condition: JSONPath.FilterExpression?
    }

    /// An evaluator for `path`; `includePaths: false` leaves the matches' paths empty (cheaper).
    init(_ path: JSONPath, includePaths: Bool = true) {
        plan = JSONPathStreamPlan(path.segments)
        self.includePaths = includePaths
    }

    /// Bytes read so far.
    var offset: Int { tokenizer.offset }

    /// Matches found so far.
    var matchCount: Int { results.count }

    /// Whether the whole body has been read.
    var isFinished: Bool { finished }

    /// Reads tokens from `bytes` (the whole body so far) until about `budget` more bytes are read, the
    /// bytes run out or the body ends. `isFinal` says no more bytes will come. Throws on invalid JSON.
    mutating func advance(_ bytes: UnsafeRawBufferPointer, isFinal: Bool, budget: Int = .max) throws(BodyError) {
        let limit = tokenizer.offset > Int.max - budget ? Int.max : tokenizer.offset + budget
        while !finished, tokenizer.offset < limit {
            if rootDone {
                // Like `JSONValue.parse`: one value, then only whitespace.
                if tokenizer.peekByte(in: bytes) != nil {
                    throw .invalidJSON(offset: tokenizer.offset, reason: "more than one value")
                }
                if isFinal { finished = true }
                return
            }
            guard let token = tokenizer.next(in: bytes, isFinal: isFinal) else {
                if isFinal { throw .invalidJSON(offset: bytes.count, reason: "no value") }
                return
            }
            try take(token, bytes)
        }
    }

    /// Every match in the tree evaluator's order; call once `isFinished`.
    mutating func finish() -> [JSONPathMatch] {
        guard !inOrder else { return results }
        let length = plan.keyLength
        var order = Array(groupEnds.indices)
        order.sort { a, b in
            for index in 0..<length where keys[a * length + index] != keys[b * length + index] {
                return keys[a * length + index] < keys[b * length + index]
            }
            return a < b
        }
        var sorted: [JSONPathMatch] = []
        sorted.reserveCapacity(results.count)
        for group in order {
            sorted += results[(group == 0 ? 0 : groupEnds[group - 1])..<groupEnds[group]]
        }
        return sorted
    }

    // MARK: Tokens

    private mutating func take(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer) throws(BodyError) {
        switch token.kind {
        case .invalid:
            let failure = tokenizer.failure
                ?? JSONTokenizerFailure(offset: token.range.lowerBound, reason: "invalid")
            throw .invalidJSON(offset: failure.offset, reason: failure.reason)
        case .key:
            pendingKey = token.range
            feed(token, bytes)
        case .colon, .comma:
            break
        case .endObject, .endArray:
            feed(token, bytes)
            frames.removeLast()
            if frames.isEmpty { rootDone = true }
        case .beginObject, .beginArray, .string, .number, .literal:
            valueStarts(token, bytes)
            if frames.isEmpty, !token.kind.isOpening { rootDone = true }
        }
    }

    private mutating func valueStarts(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer) {
        let start = token.range.lowerBound
        var routes: [Route] = []
        var ordinal = 0
        var key: Range<Int>?
        if let parent = frames.indices.last {
            ordinal = frames[parent].children
            frames[parent].children += 1
            if frames[parent].isObject { key = pendingKey }
            if !frames[parent].routes.isEmpty {
                routes = childRoutes(parent, ordinal: ordinal, key: key, start: start,
                                     isContainer: token.kind.isOpening, bytes)
            }
        } else {
            routes = [Route(consumed: 0, key: [])]
        }
        // Most values complete no route: then nothing is filtered (or allocated).
        let length = plan.prefix.count
        let completes = routes.contains { $0.consumed == length }
        if completes { matched(routes.filter { $0.consumed == length }, ordinal: ordinal, key: key, bytes) }
        feed(token, bytes)
        if token.kind.isOpening {
            let open = completes ? routes.filter { $0.consumed < length } : routes
            frames.append(Frame(isObject: token.kind == .beginObject, start: start, key: key, ordinal: ordinal,
                                routes: open))
        }
    }

    /// The routes that reach the child at `ordinal` of frame `parent` from the routes that reach the parent.
    private mutating func childRoutes(_ parent: Int, ordinal: Int, key: Range<Int>?, start: Int, isContainer: Bool,
                                      _ bytes: UnsafeRawBufferPointer) -> [Route] {
        var nameIndex: Int?
        var firstName = false
        let inObject = frames[parent].isObject
        if inObject, let key, !plan.names.isEmpty {
            nameIndex = self.nameIndex(UnsafeRawBufferPointer(rebasing: bytes[key]))
            if let nameIndex {
                firstName = frames[parent].seenNames & (1 << UInt64(nameIndex)) == 0
                frames[parent].seenNames |= 1 << UInt64(nameIndex)
            }
        }
        let parentStart = frames[parent].start
        var out: [Route] = []
        for route in frames[parent].routes {
            let segment = plan.prefix[route.consumed]
            // Under `..` every member is visited too, with the route unchanged (a scalar has nothing to visit).
            if segment.descendant, isContainer { out.append(route) }
            for (index, selector) in segment.selectors.enumerated()
            where JSONPathStreamPlan.selects(selector, ordinal: ordinal, inObject: inObject, nameIndex: nameIndex,
                                             firstName: firstName, names: plan.names) {
                var next = route
                next.consumed += 1
                if segment.descendant { next.key.append(parentStart) }
                if segment.selectors.count > 1 { next.key.append(index) }
                next.key.append(start)
                if case let .filter(expression) = selector { next.condition = expression }
                out.append(next)
            }
        }
        return out
    }

    /// Which of the plan's names the key token (quotes included) spells, if any.
    private func nameIndex(_ raw: UnsafeRawBufferPointer) -> Int? {
        let inner = UnsafeRawBufferPointer(rebasing: raw[1..<raw.count - 1])
        if !inner.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x80 }) {
            // Plain ASCII: equal bytes are equal strings, and no non-ASCII name can equal it.
            return plan.asciiNames.firstIndex { name in name.map { $0.elementsEqual(inner) } ?? false }
        }
        let key = JSONValue.unescape(raw)
        return plan.names.firstIndex { $0 == key }
    }

    // MARK: Materialising

    private mutating func matched(_ routes: [Route], ordinal: Int, key: Range<Int>?,
                                  _ bytes: UnsafeRawBufferPointer) {
        let path = includePaths ? location(ordinal: ordinal, key: key, bytes) : ""
        for route in routes {
            pending.append(Pending(depth: frames.count, key: route.key, path: path, condition: route.condition))
        }
    }

    /// Feeds a token to the values being built; the matches whose values it completes become results.
    private mutating func feed(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer) {
        guard !pending.isEmpty else { return }
        _ = builder.add(token, bytes)
        guard let found = builder.takeCompleted() else { return }
        // A closing token completes the value whose frame is still the last one; a scalar is not framed.
        let depth = token.kind.isClosing ? frames.count - 1 : frames.count
        while let match = pending.last, match.depth == depth {
            pending.removeLast()
            if let condition = match.condition, !JSONPath.test(condition, found, root: found) { continue }
            let start = JSONPathMatch(path: match.path, value: found)
            // `rest` never reads `$` unless the prefix is empty, and then `found` is the root.
            let matches = plan.rest.isEmpty ? [start] : JSONPath.apply(plan.rest, to: [start], root: found)
            append(key: match.key, matches)
        }
    }

    private mutating func append(key: [Int], _ matches: [JSONPathMatch]) {
        if inOrder, !groupEnds.isEmpty {
            let previous = keys[(keys.count - key.count)...]
            if key.lexicographicallyPrecedes(previous) { inOrder = false }
        }
        keys += key
        results += matches
        groupEnds.append(results.count)
    }

    /// The normalised path of the value starting now: the open containers' locations, then its own.
    private func location(ordinal: Int, key: Range<Int>?, _ bytes: UnsafeRawBufferPointer) -> String {
        var path = "$"
        func component(_ key: Range<Int>?, _ ordinal: Int) -> String {
            guard let key else { return "[\(ordinal)]" }
            return JSONPath.component(JSONValue.unescape(UnsafeRawBufferPointer(rebasing: bytes[key])))
        }
        for frame in frames.dropFirst() { path += component(frame.key, frame.ordinal) }
        if !frames.isEmpty { path += component(key, ordinal) }
        return path
    }
}

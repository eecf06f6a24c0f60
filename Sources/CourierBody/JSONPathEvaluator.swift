import Foundation

/// One value a JSONPath selected, with its normalised path (`$['users'][0]['name']` written as `$.users[0].name`).
public struct JSONPathMatch: Sendable, Hashable {
    public var path: String
    public var value: JSONValue
}

extension JSONPath {
    /// Every value the path selects from `root`, in document order.
    public func evaluate(_ root: JSONValue) -> [JSONPathMatch] {
        Self.apply(segments, to: [JSONPathMatch(path: "$", value: root)], root: root)
    }

    /// Evaluates over JSON bytes in one streaming pass, building only the matched values (see
    /// `JSONPathStream`): the same matches as parsing `data` and calling `evaluate`, in the same order.
    public func evaluate(_ data: Data, includePaths: Bool = true) throws(BodyError) -> [JSONPathMatch] {
        var stream = JSONPathStream(self, includePaths: includePaths)
        let failure: BodyError? = data.withUnsafeBytes { bytes in
            do throws(BodyError) { try stream.advance(bytes, isFinal: true) } catch { return error }
            return nil
        }
        if let failure { throw failure }
        return stream.finish()
    }

    /// Evaluates over `data` (streaming); the results as one pretty JSON document (an array of the matches).
    public func filter(_ data: Data) throws(BodyError)
        -> (matches: [JSONPathMatch], document: PrettyJSONDocument) {
        let matches = try evaluate(data)
        return (matches, Self.document(of: matches))
    }

    /// The matches' values as one pretty JSON document: an array, in match order.
    public static func document(of matches: [JSONPathMatch]) -> PrettyJSONDocument {
        // Written match by match: one array value's `compactJSON` would stack a step per match first.
        var text = "["
        for (index, match) in matches.enumerated() {
            if index > 0 { text += "," }
            text += match.value.compactJSON
        }
        text += "]"
        return PrettyJSONDocument(data: Data(text.utf8))
    }

    static func apply(_ segments: [Segment], to start: [JSONPathMatch], root: JSONValue) -> [JSONPathMatch] {
        var nodes = start
        for segment in segments {
            var next: [JSONPathMatch] = []
            for node in nodes {
                if segment.descendant {
                    // Iterative walk in document order: each node, then its children.
                    var stack = [node]
                    while let visit = stack.popLast() {
                        next += select(segment.selectors, from: visit, root: root)
                        stack += children(of: visit).reversed()
                    }
                } else {
                    next += select(segment.selectors, from: node, root: root)
                }
            }
            nodes = next
        }
        return nodes
    }

    private static func children(of node: JSONPathMatch) -> [JSONPathMatch] {
        switch node.value {
        case let .object(members): members.map { JSONPathMatch(path: node.path + component($0.key), value: $0.value) }
        case let .array(items): items.enumerated().map { JSONPathMatch(path: node.path + "[\($0.offset)]", value: $0.element) }
        default: []
        }
    }

    /// How a member name is written in a path: `.name` when it is a plain identifier, `['na me']` otherwise.
    static func component(_ key: String) -> String {
        let plain: Bool
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (nearly every key): the same test on bytes, without Unicode property lookups per character.
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F }
            plain = key.utf8.first.map(isLetter) == true
                && key.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
        } else {
            plain = !key.isEmpty && key.first.map { $0.isLetter || $0 == "_" } == true
                && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        if plain { return "." + key }
        return "['" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "']"
    }

    private static func select(_ selectors: [Selector], from node: JSONPathMatch, root: JSONValue) -> [JSONPathMatch] {
        var out: [JSONPathMatch] = []
        for selector in selectors {
            switch (selector, node.value) {
            case let (.name(name), .object(members)):
                if let member = members.first(where: { $0.key == name }) {
                    out.append(JSONPathMatch(path: node.path + component(name), value: member.value))
                }
            case (.wildcard, _):
                out += children(of: node)
            case let (.index(index), .array(items)):
                let resolved = index < 0 ? items.count + index : index
                if items.indices.contains(resolved) {
                    out.append(JSONPathMatch(path: node.path + "[\(resolved)]", value: items[resolved]))
                }
            case let (.slice(start, end, step), .array(items)):
                for index in sliceIndices(count: items.count, start: start, end: end, step: step ?? 1) {
                    out.append(JSONPathMatch(path: node.path + "[\(index)]", value: items[index]))
                }
            case let (.filter(expression), _):
                for child in children(of: node) where test(expression, child.value, root: root) { out.append(child) }
            default:
                break
            }
        }
        return out
    }

    private static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int) -> [Int] {
        guard step != 0 else { return [] }
        func clamp(_ value: Int) -> Int { value < 0 ? max(0, count + value) : min(count, value) }
        if step > 0 {
            let from = clamp(start ?? 0), to = clamp(end ?? count)
            return from < to ? Array(stride(from: from, to: to, by: step)) : []
        }
        let from = start.map { $0 < 0 ? count + $0 : min($0, count - 1) } ?? count - 1
        let to = end.map { $0 < 0 ? count + $0 : $0 } ?? -1
        return from > to ? Array(stride(from: from, to: to, by: step)).filter { $0 >= 0 && $0 < count } : []
    }

    // MARK: Filters

    static func test(_ expression: FilterExpression, _ current: JSONValue, root: JSONValue) -> Bool {
        switch expression {
        case let .or(left, right): test(left, current, root: root) || test(right, current, root: root)
        case let .and(left, right): test(left, current, root: root) && test(right, current, root: root)
        case let .not(inner): !test(inner, current, root: root)
        case let .exists(.function(function, arguments)) where function.isLogical:
            test(function, arguments, current, root: root)
        case let .exists(operand): !values(operand, current, root: root).isEmpty
        case let .compare(left, comparison, right):
            compare(values(left, current, root: root).first, comparison, values(right, current, root: root).first)
        }
    }

    static func values(_ operand: Operand, _ current: JSONValue, root: JSONValue) -> [JSONValue] {
        switch operand {
        case let .literal(value): [value]
        case let .function(function, arguments): result(of: function, arguments, current, root: root)
        case let .current(segments): apply(segments, to: [JSONPathMatch(path: "@", value: current)], root: root).map(\.value)
        case let .root(segments): apply(segments, to: [JSONPathMatch(path: "$", value: root)], root: root).map(\.value)
        }
    }

    private static func compare(_ left: JSONValue?, _ comparison: Comparison, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return comparison == .notEqual && (left != nil || right != nil) }
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        default: break
        }
        let order: ComparisonResult
        if let a = left.doubleValue, let b = right.doubleValue {
            order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        } else if case let .string(a) = left, case let .string(b) = right {
            order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        } else {
            return false
        }
        switch comparison {
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        case .equal, .notEqual: return false
        }
    }
}

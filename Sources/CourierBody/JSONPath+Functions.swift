import Foundation
import Synchronization

/// RFC 9535's functions in filters: `length`, `count` and `value` give a value to compare (none when their
/// argument does not fit, which no comparison but `!=` accepts), `match` and `search` a test.
extension JSONPath {
    static func result(of function: Function, _ arguments: [Operand], _ current: JSONValue,
                       root: JSONValue) -> [JSONValue] {
        let nodes = arguments.map { values($0, current, root: root) }
        switch function {
        case .count:
            return [.number(String(nodes[0].count))]
        case .value:
            return nodes[0].count == 1 ? nodes[0] : []
        case .length:
            guard nodes[0].count == 1 else { return [] }
            switch nodes[0][0] {
            case let .string(text): return [.number(String(text.unicodeScalars.count))]
            case let .array(items): return [.number(String(items.count))]
            case let .object(members): return [.number(String(members.count))]
            default: return []
            }
        case .match, .search:
            return [.bool(test(function, arguments, current, root: root))]
        }
    }

    /// `match` (the whole string) or `search` (somewhere in it): false unless both arguments are one string
    /// each and the second is a valid pattern.
    static func test(_ function: Function, _ arguments: [Operand], _ current: JSONValue, root: JSONValue) -> Bool {
        let nodes = arguments.map { values($0, current, root: root) }
        guard nodes.count == 2, nodes[0].count == 1, nodes[1].count == 1,
              case let .string(text) = nodes[0][0], case let .string(pattern) = nodes[1][0] else { return false }
        return PatternCache.shared.matches(text, pattern: pattern, whole: function == .match)
    }
}

/// Compiled patterns of `match` and `search`, so a filter tested on every item of a large array compiles
/// its pattern once.
final class PatternCache: Sendable {
    static let shared = PatternCache()
    /// Patterns beyond this many replace the cache (a filter uses one or two).
    private static let limit = 64
    private let compiled = Mutex<[String: NSRegularExpression?]>([:])

    func matches(_ text: String, pattern: String, whole: Bool) -> Bool {
        // The pattern is an I-Regexp (RFC 9485) written as ICU's; one that is not is never true.
        guard let icu = IRegexp.icuPattern(pattern) else { return false }
        // `match` is anchored at both ends: \A and \z, since `$` would also match before a final newline.
        let key = whole ? "\\A(?:" + icu + ")\\z" : icu
        return compiled.withLock { cache in
            if cache.count >= Self.limit, cache[key] == nil { cache.removeAll() }
            let expression = cache[key] ?? (try? NSRegularExpression(pattern: key))
            cache[key] = .some(expression)
            guard let expression else { return false }
            let range = NSRange(text.startIndex..., in: text)
            return expression.firstMatch(in: text, range: range) != nil
        }
    }
}

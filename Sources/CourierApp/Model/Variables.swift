/// `{{name}}` placeholders in request text: finding them and substituting known values.
public enum Variables {
    /// One piece of a template: literal text or a placeholder.
    public enum Segment: Sendable, Hashable {
        case text(String)
        case variable(String)
    }

    /// Splits `text` into literal text and `{{name}}` placeholders. An unclosed `{{` is literal text.
    public static func segments(_ text: String) -> [Segment] {
        var result: [Segment] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            if open.lowerBound > rest.startIndex { result.append(.text(String(rest[..<open.lowerBound]))) }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            result.append(.variable(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { result.append(.text(String(rest))) }
        return result
    }

    /// The names used in `text` that `values` does not define (dynamic `$` variables count as defined).
    public static func unknown(in text: String, values: [String: String]) -> [String] {
        segments(text).compactMap { segment in
            guard case .variable(let name) = segment, !isComputed(name), values[name] == nil else { return nil }
            return name
        }
    }

    /// Dynamic values (`$uuid`) and earlier responses (`login.response.body.$.token`) are known only
    /// when sending, so they are never flagged as unknown.
    public static func isComputed(_ name: String) -> Bool { name.hasPrefix("$") || name.contains(".response.") }

    /// `text` with every known placeholder replaced; unknown ones stay as written. Values may refer to
    /// other variables, resolved a few levels deep so a cycle cannot loop.
    public static func resolve(_ text: String, values: [String: String], depth: Int = 0) -> String {
        segments(text).map { segment -> String in
            switch segment {
            case .text(let literal): return literal
            case .variable(let name):
                guard let value = values[name] else { return "{{\(name)}}" }
                return depth < maxDepth ? resolve(value, values: values, depth: depth + 1) : value
            }
        }.joined()
    }

    /// How deep variables may refer to other variables.
    static let maxDepth = 8
}

import Foundation

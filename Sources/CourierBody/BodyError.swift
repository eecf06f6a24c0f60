import Foundation

/// What can go wrong in CourierBody, each case with what the user needs to act on it.
public enum BodyError: Error, Sendable, Equatable {
    /// A body file could not be read or mapped.
    case unreadable(path: String, reason: String)
    /// A JSONPath expression did not parse: the offset in the expression and what was expected.
    case invalidPath(expression: String, offset: Int, expected: String)
    /// The body is not JSON the filter can evaluate: the byte offset and why.
    case invalidJSON(offset: Int, reason: String)
    /// A regular expression for search did not compile.
    case invalidPattern(pattern: String)
}

extension BodyError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read \(path): \(reason)"
        case let .invalidPath(expression, offset, expected):
            "JSONPath '\(expression)': expected \(expected) at offset \(offset)"
        case let .invalidJSON(offset, reason): "invalid JSON at byte \(offset): \(reason)"
        case let .invalidPattern(pattern): "invalid regular expression '\(pattern)'"
        }
    }
}

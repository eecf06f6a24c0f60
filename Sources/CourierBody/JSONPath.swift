/// A parsed JSONPath expression: `$.a.b`, `$.users[*].name`, `$..id`, `[0]`, `[-1]`, `[1:3]`, `['key']`,
/// `[?(@.age > 30 && @.email)]`. Parse once, evaluate against any `JSONValue`.
public struct JSONPath: Sendable, Hashable {
    /// The expression as written.
    public let expression: String
    let segments: [Segment]

    /// One step of the path; `descendant` applies its selectors at every depth.
    struct Segment: Sendable, Hashable {
        var selectors: [Selector]
        var descendant: Bool
    }

    /// What one step selects from a value.
    enum Selector: Sendable, Hashable {
        case name(String)
        case wildcard
        case index(Int)
        case slice(start: Int?, end: Int?, step: Int?)
        case filter(FilterExpression)
    }

    /// A filter condition over `@`, the candidate value.
    indirect enum FilterExpression: Sendable, Hashable {
        case or(FilterExpression, FilterExpression)
        case and(FilterExpression, FilterExpression)
        case not(FilterExpression)
        case compare(Operand, Comparison, Operand)
        /// `@.email`: true when the relative path selects something.
        case exists(Operand)
    }

    /// A value in a filter: a path relative to `@` (or absolute from `$`), a literal, or a function of
    /// other operands (RFC 9535: `length(@.name)`, `count(@.tags[*])`, `match(@.id, 'a.*')`).
    indirect enum Operand: Sendable, Hashable {
        case current([Segment])
        case root([Segment])
        case literal(JSONValue)
        case function(Function, [Operand])
    }

    /// The function extensions of RFC 9535.
    enum Function: String, Sendable, Hashable, CaseIterable {
        /// Characters of a string, items of an array, members of an object.
        case length
        /// How many nodes a path selects.
        case count
        /// Whether a string matches a regular expression as a whole.
        case match
        /// Whether a string contains a match of a regular expression.
        case search
        /// The value of the one node a path selects.
        case value

        /// How many arguments the function takes.
        var arity: Int { self == .match || self == .search ? 2 : 1 }
        /// Whether its result is true or false (a test) rather than a value to compare.
        var isLogical: Bool { self == .match || self == .search }
    }

    /// The comparison operators a filter supports.
    enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
    }

    /// Parses an expression; a leading `$` is optional (`.a`, `[0]` and `a.b` mean `$.a`, `$[0]`, `$.a.b`).
    public init(_ expression: String) throws(BodyError) {
        self.expression = expression
        var parser = JSONPathParser(expression)
        segments = try parser.parsePath()
    }
}

/// A recursive-descent reader of JSONPath text.
struct JSONPathParser {
    private let text: [Character]
    private let expression: String
    private var index = 0

    init(_ expression: String) {
        self.expression = expression
        self.text = Array(expression.trimmingCharacters(in: .whitespaces))
    }

    private var current: Character? { index < text.count ? text[index] : nil }

    private func error(_ expected: String) -> BodyError {
        .invalidPath(expression: expression, offset: index, expected: expected)
    }

    private mutating func skipSpaces() { while current == " " { index += 1 } }

    private mutating func consume(_ literal: String) -> Bool {
        let characters = Array(literal)
        guard index + characters.count <= text.count, Array(text[index..<index + characters.count]) == characters else {
            return false
        }
        index += characters.count
        return true
    }

    mutating func parsePath() throws(BodyError) -> [JSONPath.Segment] {
        if current == "$" { index += 1 } else if let first = current, first != "." && first != "[" {
            // A bare `a.b` reads as `$.a.b`.
            let segments = try parseSegments(leadingName: true)
            guard index == text.count else { throw error("end of expression") }
            return segments
        }
        let segments = try parseSegments(leadingName: false)
        guard index == text.count else { throw error("'.', '..' or '['") }
        return segments
    }

    /// Segments until something that is not `.`, `..` or `[`.
    mutating func parseSegments(leadingName: Bool) throws(BodyError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        if leadingName { segments.append(.init(selectors: [.name(try parseName())], descendant: false)) }
        while let character = current {
            if consume("..") {
                if current == "[" {
                    segments.append(.init(selectors: try parseBracket(), descendant: true))
                } else if consume("*") {
                    segments.append(.init(selectors: [.wildcard], descendant: true))
                } else {
                    segments.append(.init(selectors: [.name(try parseName())], descendant: true))
                }
            } else if character == "." {
                index += 1
                if consume("*") {
                    segments.append(.init(selectors: [.wildcard], descendant: false))
                } else {
                    segments.append(.init(selectors: [.name(try parseName())], descendant: false))
                }
            } else if character == "[" {
                segments.append(.init(selectors: try parseBracket(), descendant: false))
            } else {
                break
            }
        }
        return segments
    }

    private mutating func parseName() throws(BodyError) -> String {
        let start = index
        while let character = current, character.isLetter || character.isNumber || character == "_" || character == "-" || character == "$" {
            index += 1
        }
        guard index > start else { throw error("a member name") }
        return String(text[start..<index])
    }

    private mutating func parseBracket() throws(BodyError) -> [JSONPath.Selector] {
        index += 1  // [
        var selectors: [JSONPath.Selector] = []
        repeat {
            skipSpaces()
            selectors.append(try parseSelector())
            skipSpaces()
        } while consume(",")
        guard consume("]") else { throw error("']'") }
        return selectors
    }

    private mutating func parseSelector() throws(BodyError) -> JSONPath.Selector {
        if consume("*") { return .wildcard }
        if current == "'" || current == "\"" { return .name(try parseQuoted()) }
        if consume("?") {
            skipSpaces()
            let parenthesised = consume("(")
            let filter = try parseOr()
            skipSpaces()
            if parenthesised, !consume(")") { throw error("')'") }
            return .filter(filter)
        }
        let start = try parseOptionalInteger()
        skipSpaces()
        guard consume(":") else {
            guard let start else { throw error("an index, a slice, '*', a quoted name or a filter") }
            return .index(start)
        }
        skipSpaces()
        let end = try parseOptionalInteger()
        skipSpaces()
        var step: Int?
        if consume(":") { skipSpaces(); step = try parseOptionalInteger() }
        return .slice(start: start, end: end, step: step)
    }

    private mutating func parseOptionalInteger() throws(BodyError) -> Int? {
        let start = index
        if current == "-" { index += 1 }
        while let character = current, character.isASCII, character.isNumber { index += 1 }
        guard index > start else { return nil }
        guard let value = Int(String(text[start..<index])) else { throw error("an integer") }
        return value
    }

    private mutating func parseQuoted() throws(BodyError) -> String {
        guard let quote = current else { throw error("a quoted string") }
        index += 1
        var result = ""
        while let character = current, character != quote {
            if character == "\\", index + 1 < text.count {
                index += 1
                let escaped = text[index]
                result.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
            } else {
                result.append(character)
            }
            index += 1
        }
        guard current == quote else { throw error("a closing \(quote)") }
        index += 1
        return result
    }

    // MARK: Filters

    private mutating func parseOr() throws(BodyError) -> JSONPath.FilterExpression {
        var left = try parseAnd()
        skipSpaces()
        while consume("||") { skipSpaces(); left = .or(left, try parseAnd()); skipSpaces() }
        return left
    }

    private mutating func parseAnd() throws(BodyError) -> JSONPath.FilterExpression {
        var left = try parseUnary()
        skipSpaces()
        while consume("&&") { skipSpaces(); left = .and(left, try parseUnary()); skipSpaces() }
        return left
    }

    private mutating func parseUnary() throws(BodyError) -> JSONPath.FilterExpression {
        skipSpaces()
        if consume("!") { return .not(try parseUnary()) }
        if consume("(") {
            let inner = try parseOr()
            skipSpaces()
            guard consume(")") else { throw error("')'") }
            return inner
        }
        let left = try parseOperand()
        skipSpaces()
        for comparison in JSONPath.Comparison.allCases where consume(comparison.rawValue) {
            skipSpaces()
            return .compare(left, comparison, try parseOperand())
        }
        return .exists(left)
    }

    private mutating func parseOperand() throws(BodyError) -> JSONPath.Operand {
        if consume("@") { return .current(try parseSegments(leadingName: false)) }
        if let first = current, first.isLetter, first.isLowercase, !["true", "false", "null"].contains(where: { peek($0) }) {
            return try parseFunction()
        }
        if consume("$") { return .root(try parseSegments(leadingName: false)) }
        if current == "'" || current == "\"" { return .literal(.string(try parseQuoted())) }
        if consume("true") { return .literal(.bool(true)) }
        if consume("false") { return .literal(.bool(false)) }
        if consume("null") { return .literal(.null) }
        let start = index
        while let character = current, character.isNumber || "+-.eE".contains(character) { index += 1 }
        let number = String(text[start..<index])
        guard !number.isEmpty, Double(number) != nil else {
            throw error("'@', a number, a string, true, false, null or a function")
        }
        return .literal(.number(number))
    }

    private func peek(_ literal: String) -> Bool {
        let characters = Array(literal)
        return index + characters.count <= text.count && Array(text[index..<index + characters.count]) == characters
    }

    /// `name(argument, …)`, one of RFC 9535's functions with as many arguments as it takes.
    private mutating func parseFunction() throws(BodyError) -> JSONPath.Operand {
        let start = index
        while let character = current, character.isLetter { index += 1 }
        let names = JSONPath.Function.allCases.map(\.rawValue).joined(separator: ", ")
        guard let function = JSONPath.Function(rawValue: String(text[start..<index])) else {
            index = start
            throw error("a function (\(names))")
        }
        skipSpaces()
        guard consume("(") else { throw error("'(' after \(function.rawValue)") }
        var arguments: [JSONPath.Operand] = []
        repeat {
            skipSpaces()
            arguments.append(try parseOperand())
            skipSpaces()
        } while consume(",")
        guard arguments.count == function.arity else {
            throw error("\(function.arity) argument\(function.arity == 1 ? "" : "s") to \(function.rawValue)")
        }
        guard consume(")") else { throw error("')'") }
        return .function(function, arguments)
    }
}

import Foundation

/// A `.bru` file read into its blocks, after Bruno's grammar: a block is a name and `{` on one line and
/// ends at a line that is `}` alone. Dictionary blocks (`meta`, `get`, `headers`, `auth:bearer`, `vars`, …)
/// hold `key: value` lines (`~key` disabled, a `'''` value spanning lines); text blocks (`body:json`,
/// `script:pre-request`, `tests`, `docs`, …) hold text indented by two spaces; `vars:secret [ a, b ]` is a list.
struct BruFile {
    /// One `key: value` line of a dictionary block.
    struct Pair: Equatable {
        var key: String
        var value: String
        var enabled: Bool
        var line: Int
    }

    struct Block {
        var name: String
        /// The line of `name {`.
        var line: Int
        var pairs: [Pair] = []
        var text = ""
        var list: [String] = []
    }

    /// What is wrong with the file, at its line.
    struct Failure: Error {
        var line: Int
        var message: String
    }

    private(set) var blocks: [Block] = []

    /// Blocks whose content is text, not `key: value` lines.
    static func isTextBlock(_ name: String) -> Bool {
        name.hasPrefix("body") && !["body:form-urlencoded", "body:multipart-form"].contains(name)
            || name.hasPrefix("script:") || name == "tests" || name == "docs"
    }

    init(_ source: String) throws(Failure) {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingBlanks
            index += 1
            if trimmed.isEmpty { continue }
            if trimmed.hasSuffix("[") {
                let name = trimmed.dropLast().trimmingBlanks
                var block = Block(name: name, line: index)
                guard let end = lines[index...].firstIndex(where: { $0.trimmingBlanks == "]" }) else {
                    throw Failure(line: block.line, message: "block '\(name)' has no closing ']'")
                }
                block.list = lines[index..<end].flatMap { $0.split(separator: ",") }.map { $0.trimmingBlanks }
                    .filter { !$0.isEmpty }
                blocks.append(block)
                index = end + 1
                continue
            }
            guard trimmed.hasSuffix("{"), !line.hasPrefix(" "), !line.hasPrefix("\t") else {
                throw Failure(line: index, message: "expected a block such as 'meta {', found '\(trimmed.prefix(40))'")
            }
            let name = trimmed.dropLast().trimmingBlanks
            guard !name.isEmpty, !name.contains(" ") else {
                throw Failure(line: index, message: "expected a block name before '{'")
            }
            var block = Block(name: name, line: index)
            // A block ends at a line that is `}` alone (Bruno's `tagend`: a newline, then `}`).
            guard let end = lines[index...].firstIndex(where: { $0.hasPrefix("}") && $0.trimmingBlanks == "}" }) else {
                throw Failure(line: block.line, message: "block '\(name)' has no closing '}'")
            }
            let body = Array(lines[index..<end])
            if Self.isTextBlock(name) {
                block.text = Self.outdented(body)
            } else {
                block.pairs = try Self.pairs(body, firstLine: index + 1)
            }
            blocks.append(block)
            index = end + 1
        }
    }

    /// Text lines without the block's two-space indent, blank lines at either end dropped.
    static func outdented(_ lines: [String]) -> String {
        var body = lines
        while body.first?.trimmingBlanks.isEmpty == true { body.removeFirst() }
        while body.last?.trimmingBlanks.isEmpty == true { body.removeLast() }
        return body.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
    }

    /// `key: value` lines; a value `'''` runs to the line ending `'''`, its lines outdented by four spaces.
    static func pairs(_ lines: [String], firstLine: Int) throws(Failure) -> [Pair] {
        var pairs: [Pair] = []
        var index = 0
        while index < lines.count {
            let number = firstLine + index
            let line = lines[index].trimmingBlanks
            index += 1
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw Failure(line: number, message: "expected 'name: value', found '\(line.prefix(40))'")
            }
            var key = line[..<colon].trimmingBlanks
            var value = line[line.index(after: colon)...].trimmingBlanks
            let enabled = !key.hasPrefix("~")
            if !enabled { key.removeFirst() }
            if value.hasPrefix("'''") {
                var collected: [String] = []
                var rest = String(value.dropFirst(3))
                while !rest.hasSuffix("'''") {
                    collected.append(rest)
                    guard index < lines.count else {
                        throw Failure(line: number, message: "the ''' value of '\(key)' is not closed")
                    }
                    rest = lines[index]
                    index += 1
                }
                collected.append(String(rest.dropLast(3)))
                // As Bruno reads it: each line less four spaces, the whole trimmed.
                value = collected.map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }.joined(separator: "\n")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            pairs.append(Pair(key: key, value: value, enabled: enabled, line: number))
        }
        return pairs
    }

    func block(_ name: String) -> Block? { blocks.first { $0.name == name } }

    /// The enabled value of `key` in block `name`.
    func value(_ key: String, in name: String) -> String? {
        block(name)?.pairs.first { $0.key == key && $0.enabled }?.value
    }
}

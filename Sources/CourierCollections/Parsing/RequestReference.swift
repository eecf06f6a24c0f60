/// httpyac's `# @ref NAME` and `# @forceRef NAME`: the request named NAME (in this file or one it imports
/// with `# @import`) runs before this one, `ref` only when it has no response yet in the run or session,
/// `forceRef` every time.
public struct RequestReference: Sendable, Hashable {
    public var name: String
    /// `forceRef`: run it even when it already answered.
    public var force: Bool
    /// 1-based line of the tag.
    public var line: Int

    public init(name: String, force: Bool, line: Int) {
        self.name = name
        self.force = force
        self.line = line
    }

    /// The tag words, as httpyac spells them (kebab case is camel-cased there: `force-ref` is `forceRef`).
    static func parse(key: String, value: String, line: Int) -> RequestReference? {
        let force: Bool
        switch key.lowercased() {
        case "ref": force = false
        case "forceref", "force-ref": force = true
        default: return nil
        }
        return RequestReference(name: value, force: force, line: line)
    }
}

/// httpyac's `# @loop for ITEM of EXPRESSION`, `# @loop for N` and `# @loop while CONDITION`: the request is
/// sent once per item (N times, or while the JavaScript condition holds) with `{{$index}}` (from 0) and
/// `{{ITEM}}` set, and its responses are named NAME0, NAME1, … (NAME is the first).
public struct RequestLoop: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `for item of data`: the variable's name and the expression giving the array.
        case forOf(variable: String, iterable: String)
        /// `for 3`.
        case count(Int)
        /// `while page.next`: the JavaScript condition, evaluated before each pass.
        case whileTrue(condition: String)
    }

    public var kind: Kind
    /// 1-based line of the tag.
    public var line: Int

    public init(kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// The variable holding the pass's number, from 0.
    public static let indexVariable = "$index"

    /// Reads the text after `@loop`; the error says what is wrong.
    static func parse(_ value: String, line: Int) -> Result<RequestLoop, LoopProblem> {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.first == "for" || words.first == "while" else {
            return .failure(LoopProblem("expected '# @loop for ITEM of EXPRESSION', '# @loop for N' or "
                + "'# @loop while CONDITION'"))
        }
        if words.first == "while" {
            guard words.count > 1 else { return .failure(LoopProblem("expected '# @loop while CONDITION'")) }
            return .success(RequestLoop(kind: .whileTrue(condition: words[1...].joined(separator: " ")), line: line))
        }
        if words.count == 2, let count = Int(words[1]), count >= 0 {
            return .success(RequestLoop(kind: .count(count), line: line))
        }
        if words.count >= 4, words[2] == "of", words[1].allSatisfy(HTTPFileParser.isVariableNameCharacter) {
            let iterable = words[3...].joined(separator: " ")
            return .success(RequestLoop(kind: .forOf(variable: words[1], iterable: iterable), line: line))
        }
        return .failure(LoopProblem("expected '# @loop for ITEM of EXPRESSION' or '# @loop for N'"))
    }
}

/// Why a `# @loop` line cannot be read.
struct LoopProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One lexical unit of JSON with the byte range it covers in the source.
public struct JSONToken: Sendable, Hashable {
    public var kind: JSONTokenKind
    public var range: Range<Int>
    /// Creates the value from its parts.
    public init(_ kind: JSONTokenKind, _ range: Range<Int>) { self.kind = kind; self.range = range }
}

/// The kinds of JSON token; `invalid` covers everything from the first error to the end of the input.
public enum JSONTokenKind: UInt8, Sendable, Hashable {
    case beginObject, endObject, beginArray, endArray, colon, comma
    /// A string in key position (colour differs from a string value).
    case key
    case string, number, literal
    case invalid

    /// The colour role of this kind.
    public var role: TextRole {
        switch self {
        case .key: .key
        case .string: .string
        case .number: .number
        case .literal: .literal
        case .invalid: .invalid
        case .beginObject, .endObject, .beginArray, .endArray, .colon, .comma: .punctuation
        }
    }

    /// Whether the token opens an object or an array.
    public var isOpening: Bool { self == .beginObject || self == .beginArray }
    /// Whether the token closes an object or an array.
    public var isClosing: Bool { self == .endObject || self == .endArray }
}

/// Why the tokenizer stopped on invalid input.
public struct JSONTokenizerFailure: Sendable, Hashable {
    /// Byte offset of the first byte that is not valid JSON.
    public var offset: Int
    /// What was expected there.
    public var reason: String
}

/// A stack of container kinds (object or array) packed one bit per level, so 10,000 levels of nesting
/// cost 160 words and copying a tokenizer for a checkpoint stays cheap.
struct ContainerStack: Sendable, Hashable {
    private var words: [UInt64] = []
    private(set) var depth = 0

    var isEmpty: Bool { depth == 0 }

    /// Whether the innermost container is an object.
    var topIsObject: Bool {
        guard depth > 0 else { return false }
        let index = depth - 1
        return words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    mutating func push(object: Bool) {
        let index = depth
        if index >> 6 == words.count { words.append(0) }
        if object { words[index >> 6] |= 1 << UInt64(index & 63) } else { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
        depth += 1
    }

    mutating func pop() { if depth > 0 { depth -= 1 } }

    /// Goes back to `depth` levels with `topIsObject` innermost, as they were when noted. Levels below
    /// the innermost are never rewritten by one pop and the pushes after it, which is all a tokenizer
    /// does between two notes a line apart, so this undoes them without copying the storage.
    mutating func restore(depth: Int, topIsObject: Bool) {
        self.depth = depth
        guard depth > 0 else { return }
        let index = depth - 1
        if topIsObject { words[index >> 6] |= 1 << UInt64(index & 63) } else { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
    }
}

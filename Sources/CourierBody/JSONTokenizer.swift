/// A streaming JSON tokenizer: bytes in, tokens with byte ranges out, no document tree. Its state is a
/// small value, so it can be copied as a checkpoint and resumed later, or fed a body still arriving
/// (`isFinal: false` makes it wait rather than fail on a token cut by the end of the bytes so far).
/// Top-level values may follow one another (NDJSON). Invalid input yields one `.invalid` token from
/// the first bad byte to the end, and `failure` says where and why.
public struct JSONTokenizer: Sendable, Hashable {
    /// The next byte to read.
    public private(set) var offset: Int
    /// Set once the input turned out not to be JSON.
    public private(set) var failure: JSONTokenizerFailure?
    private var stack = ContainerStack()
    private var expect: Expect = .value

    enum Expect: UInt8, Sendable, Hashable {
        case value, valueOrEnd, keyOrEnd, key, colon, commaOrEnd, finished
    }

    /// A tokenizer that starts reading at byte `offset`.
    public init(offset: Int = 0) { self.offset = offset }

    /// The current nesting depth.
    public var depth: Int { stack.depth }

    /// Whether the tokenizer has produced everything (input ended, or an invalid token was returned).
    public var isFinished: Bool { expect == .finished }

    /// The next token, or nil when the bytes so far hold no complete token (or the input is done).
    public mutating func next(in bytes: UnsafeRawBufferPointer, isFinal: Bool = true) -> JSONToken? {
        guard expect != .finished else { return nil }
        let count = bytes.count
        var position = offset
        while position < count, Self.isWhitespace(bytes[position]) { position += 1 }
        offset = position
        guard position < count else {
            if isFinal {
                if stack.isEmpty && (expect == .value || expect == .commaOrEnd) {
                    expect = .finished
                    return nil
                }
                return fail(at: position, count: count, "more JSON before the end of the body")
            }
            return nil
        }
        let byte = bytes[position]
        switch expect {
        case .value, .valueOrEnd:
            if byte == UInt8(ascii: "]"), expect == .valueOrEnd { return close(object: false, position) }
            return value(bytes, at: position, isFinal: isFinal)
        case .keyOrEnd, .key:
            if byte == UInt8(ascii: "}"), expect == .keyOrEnd { return close(object: true, position) }
            guard byte == UInt8(ascii: "\"") else { return fail(at: position, count: count, "a key in quotes") }
            guard let end = Self.stringEnd(bytes, from: position) else {
                return isFinal ? fail(at: position, count: count, "a closing quote") : nil
            }
            if end < 0 { return fail(at: -end, count: count, "a valid escape") }
            offset = end
            expect = .colon
            return JSONToken(.key, position..<end)
        case .colon:
            guard byte == UInt8(ascii: ":") else { return fail(at: position, count: count, "':' after the key") }
            offset = position + 1
            expect = .value
            return JSONToken(.colon, position..<position + 1)
        case .commaOrEnd:
            if stack.isEmpty { return value(bytes, at: position, isFinal: isFinal) }
            if byte == UInt8(ascii: ",") {
                offset = position + 1
                expect = stack.topIsObject ? .key : .value
                return JSONToken(.comma, position..<position + 1)
            }
            if byte == UInt8(ascii: "}"), stack.topIsObject { return close(object: true, position) }
            if byte == UInt8(ascii: "]"), !stack.topIsObject { return close(object: false, position) }
            return fail(at: position, count: count, stack.topIsObject ? "',' or '}'" : "',' or ']'")
        case .finished:
            return nil
        }
    }

    /// The next non-whitespace byte without consuming anything (nil at the end of the bytes).
    public func peekByte(in bytes: UnsafeRawBufferPointer) -> UInt8? {
        guard expect != .finished else { return nil }
        var position = offset
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position < bytes.count ? bytes[position] : nil
    }

    /// Whether `bytes` hold exactly one JSON value (blanks around it allowed), read without building it: for
    /// the checks that only ask whether text is JSON, which Foundation's reader answered by building the value.
    public static func holdsOneValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var tokenizer = JSONTokenizer()
        while let token = tokenizer.next(in: bytes) {
            guard token.kind != .invalid else { return false }
            // The first value is complete: nothing but blanks may follow it.
            if tokenizer.depth == 0 { return tokenizer.peekByte(in: bytes) == nil }
        }
        return false
    }

    /// The tokenizer's position, to go back to without copying its stack (see `restore`).
    struct Mark: Sendable {
        fileprivate var offset: Int
        fileprivate var failure: JSONTokenizerFailure?
        fileprivate var expect: Expect
        fileprivate var depth: Int
        fileprivate var topIsObject: Bool
    }

    /// Where the tokenizer is now.
    var mark: Mark { Mark(offset: offset, failure: failure, expect: expect, depth: stack.depth, topIsObject: stack.topIsObject) }

    /// Goes back to `mark`, valid while the tokens read since then closed at most one container that was
    /// open at the mark (a pretty line's worth), so a line cut by the end of the bytes can be read again.
    mutating func restore(_ mark: Mark) {
        offset = mark.offset
        failure = mark.failure
        expect = mark.expect
        stack.restore(depth: mark.depth, topIsObject: mark.topIsObject)
    }

    /// Shifts the offsets down by `count`, after the owner of the bytes dropped that many it had read.
    mutating func rebase(droppingFirst count: Int) {
        offset -= count
        failure?.offset -= count
    }

    // MARK: Values

    private mutating func value(_ bytes: UnsafeRawBufferPointer, at position: Int, isFinal: Bool) -> JSONToken? {
        let count = bytes.count
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "{"):
            stack.push(object: true)
            offset = position + 1
            expect = .keyOrEnd
            return JSONToken(.beginObject, position..<position + 1)
        case UInt8(ascii: "["):
            stack.push(object: false)
            offset = position + 1
            expect = .valueOrEnd
            return JSONToken(.beginArray, position..<position + 1)
        case UInt8(ascii: "\""):
            guard let end = Self.stringEnd(bytes, from: position) else {
                return isFinal ? fail(at: position, count: count, "a closing quote") : nil
            }
            if end < 0 { return fail(at: -end, count: count, "a valid escape") }
            return scalar(.string, position..<end)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (end, valid) = Self.numberEnd(bytes, from: position)
            if end == count && !isFinal { return nil }
            guard valid else { return fail(at: position, count: count, "a number") }
            return scalar(.number, position..<end)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word: StaticString = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
            let length = word.utf8CodeUnitCount
            let available = min(length, count - position)
            guard Self.matches(bytes, at: position, word, upTo: available) else {
                return fail(at: position, count: count, "a value")
            }
            if available < length { return isFinal ? fail(at: position, count: count, "\(word)") : nil }
            // `true` at the end of a chunk may continue as `truex`: wait for the next byte.
            if position + length == count && !isFinal { return nil }
            if position + length < count, Self.isWordByte(bytes[position + length]) {
                return fail(at: position, count: count, "\(word)")
            }
            return scalar(.literal, position..<position + length)
        default:
            return fail(at: position, count: count, "a value")
        }
    }

    private mutating func scalar(_ kind: JSONTokenKind, _ range: Range<Int>) -> JSONToken {
        offset = range.upperBound
        expect = .commaOrEnd
        return JSONToken(kind, range)
    }

    private mutating func close(object: Bool, _ position: Int) -> JSONToken {
        stack.pop()
        offset = position + 1
        expect = .commaOrEnd
        return JSONToken(object ? .endObject : .endArray, position..<position + 1)
    }

    private mutating func fail(at position: Int, count: Int, _ expected: String) -> JSONToken {
        failure = JSONTokenizerFailure(offset: position, reason: "expected \(expected)")
        expect = .finished
        let start = min(offset, position)
        offset = count
        return JSONToken(.invalid, start..<count)
    }

    // MARK: Scanning

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, at position: Int, _ word: StaticString, upTo length: Int) -> Bool {
        let utf8 = word.utf8Start
        for index in 0..<length where bytes[position + index] != utf8[index] { return false }
        return true
    }

    /// The offset after the closing quote of the string starting at `start`; nil when the bytes end first;
    /// a negative offset (the bad byte's, negated) for an invalid escape.
    static func stringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let count = bytes.count
        var position = start + 1
        while position < count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { return position + 1 }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < count else { return nil }
                switch bytes[position + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 2
                case UInt8(ascii: "u"):
                    for index in 2..<6 {
                        guard position + index < count else { return nil }
                        guard isHex(bytes[position + index]) else { return -(position + index) }
                    }
                    position += 6
                default:
                    return -(position + 1)
                }
                continue
            }
            position += 1
        }
        return nil
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// The end of the number starting at `start` and whether its form is valid JSON.
    static func numberEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (Int, Bool) {
        let count = bytes.count
        var position = start
        func digits() -> Int {
            let from = position
            while position < count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - from
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let first = position < count ? bytes[position] : 0
        let integer = digits()
        var valid = integer > 0 && !(first == UInt8(ascii: "0") && integer > 1)
        if position < count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            if digits() == 0 { valid = false }
        }
        if position < count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            if digits() == 0 { valid = false }
        }
        if position < count, isWordByte(bytes[position]) || bytes[position] == UInt8(ascii: ".") { valid = false }
        return (position, valid)
    }
}

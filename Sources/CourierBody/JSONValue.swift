import Foundation

/// A parsed JSON value for the JSONPath filter. Objects keep their key order so results read like the body.
public indirect enum JSONValue: Sendable, Hashable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// The number's source text (kept exact); `doubleValue` for comparisons.
    case number(String)
    case bool(Bool)
    case null

    /// Compares by value (numbers by their numeric value).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.number(a), .number(b)): Double(a) == Double(b)
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case let .object(members): hasher.combine(members.count); for m in members { hasher.combine(m.key) }
        case let .array(items): hasher.combine(items)
        case let .string(s): hasher.combine(s)
        case let .number(n): hasher.combine(Double(n))
        case let .bool(b): hasher.combine(b)
        case .null: hasher.combine(0)
        }
    }

    /// The number as a Double, when this is a number.
    public var doubleValue: Double? { if case let .number(text) = self { Double(text) } else { nil } }

    /// The member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { members.first { $0.key == key }?.value } else { nil }
    }

    /// Compact JSON text of the value (iterative, so deep values do not exhaust the stack).
    public var compactJSON: String {
        var out = ""
        enum Step { case value(JSONValue), text(String) }
        var stack: [Step] = [.value(self)]
        while let step = stack.popLast() {
            switch step {
            case let .text(text): out += text
            case let .value(value):
                switch value {
                case let .object(members):
                    out += "{"
                    stack.append(.text("}"))
                    for (index, member) in members.enumerated().reversed() {
                        stack.append(.value(member.value))
                        stack.append(.text((index > 0 ? "," : "") + JSONValue.quoted(member.key) + ":"))
                    }
                case let .array(items):
                    out += "["
                    stack.append(.text("]"))
                    for (index, item) in items.enumerated().reversed() {
                        stack.append(.value(item))
                        if index > 0 { stack.append(.text(",")) }
                    }
                case let .string(text): out += JSONValue.quoted(text)
                case let .number(text): out += text
                case let .bool(flag): out += flag ? "true" : "false"
                case .null: out += "null"
                }
            }
        }
        return out
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension JSONValue {
    /// Parses a whole JSON document with the streaming tokenizer, iteratively (deep nesting is fine).
    public static func parse(_ data: Data) throws(BodyError) -> JSONValue {
        let result: Result<JSONValue, BodyError> = data.withUnsafeBytes { bytes in
            var tokenizer = JSONTokenizer()
            var builder = JSONValueBuilder()
            while let token = tokenizer.next(in: bytes) {
                if token.kind == .invalid {
                    let failure = tokenizer.failure ?? JSONTokenizerFailure(offset: token.range.lowerBound, reason: "invalid")
                    return .failure(.invalidJSON(offset: failure.offset, reason: failure.reason))
                }
                if let done = builder.add(token, bytes) {
                    if tokenizer.peekByte(in: bytes) != nil {
                        return .failure(.invalidJSON(offset: tokenizer.offset, reason: "more than one value"))
                    }
                    return .success(done)
                }
            }
            return .failure(.invalidJSON(offset: bytes.count, reason: "no value"))
        }
        return try result.get()
    }

    /// The text of a JSON string token (quotes included) with its escapes decoded.
    public static func unescape(_ raw: UnsafeRawBufferPointer) -> String {
        guard raw.count >= 2 else { return "" }
        let inner = UnsafeRawBufferPointer(rebasing: raw[1..<raw.count - 1])
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        var units: [UInt8] = []
        units.reserveCapacity(inner.count)
        var index = 0
        var pendingHigh: UInt32?
        func appendScalar(_ value: UInt32) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            units.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        while index < inner.count {
            let byte = inner[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < inner.count else {
                if let high = pendingHigh { appendScalar(high); pendingHigh = nil }
                units.append(byte); index += 1; continue
            }
            let escape = inner[index + 1]
            if escape == UInt8(ascii: "u"), index + 5 < inner.count,
               let value = UInt32(String(decoding: UnsafeRawBufferPointer(rebasing: inner[index + 2..<index + 6]), as: UTF8.self), radix: 16) {
                index += 6
                if (0xD800...0xDBFF).contains(value) {
                    if let high = pendingHigh { appendScalar(high) }
                    pendingHigh = value
                } else if (0xDC00...0xDFFF).contains(value), let high = pendingHigh {
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                    pendingHigh = nil
                } else {
                    if pendingHigh != nil { appendScalar(0xFFFD); pendingHigh = nil }
                    appendScalar(value)
                }
                continue
            }
            if pendingHigh != nil { appendScalar(0xFFFD); pendingHigh = nil }
            let mapped: UInt8 = switch escape {
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            default: escape
            }
            units.append(mapped)
            index += 2
        }
        if pendingHigh != nil { appendScalar(0xFFFD) }
        return String(decoding: units, as: UTF8.self)
    }
}

/// Builds a JSONValue from tokens with an explicit stack instead of recursion.
struct JSONValueBuilder {
    /// An open container. A struct mutated in place through `frames[last]`: appending to an array held
    /// in an enum payload would copy it on every element, which made large arrays quadratic.
    private struct Frame {
        var isObject: Bool
        var members: [(key: String, value: JSONValue)] = []
        var items: [JSONValue] = []
        var pendingKey: String?
    }
    private var frames: [Frame] = []
    /// The value the last token completed, at any depth (see `takeCompleted`).
    private var completed: JSONValue?

    /// The value the last token added completed (a scalar, or the container it closed), once; nil when
    /// that token completed none.
    mutating func takeCompleted() -> JSONValue? {
        defer { completed = nil }
        return completed
    }

    /// Adds a token; returns the finished top-level value when it completes.
    mutating func add(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[token.range])
        switch token.kind {
        case .beginObject: frames.append(Frame(isObject: true)); return nil
        case .beginArray: frames.append(Frame(isObject: false)); return nil
        case .key:
            if let last = frames.indices.last, frames[last].isObject {
                frames[last].pendingKey = JSONValue.unescape(slice)
            }
            return nil
        case .colon, .comma, .invalid: return nil
        case .endObject, .endArray:
            guard let frame = frames.popLast() else { return nil }
            return place(frame.isObject ? .object(frame.members) : .array(frame.items))
        case .string: return place(.string(JSONValue.unescape(slice)))
        case .number: return place(.number(String(decoding: slice, as: UTF8.self)))
        case .literal:
            switch slice.first {
            case UInt8(ascii: "t"): return place(.bool(true))
            case UInt8(ascii: "f"): return place(.bool(false))
            default: return place(.null)
            }
        }
    }

    private mutating func place(_ value: JSONValue) -> JSONValue? {
        completed = value
        guard let last = frames.indices.last else { return value }
        if frames[last].isObject {
            frames[last].members.append((frames[last].pendingKey ?? "", value))
            frames[last].pendingKey = nil
        } else {
            frames[last].items.append(value)
        }
        return nil
    }
}

import CourierBody
import Foundation

/// What the JSON values seen at one place of a response have in common: every element of an array and
/// every response merged into one shape, from which a `Codable` type is written.
struct JSONShape: Sendable, Hashable {
    /// The kinds of value seen, merged.
    indirect enum Kind: Sendable, Hashable {
        /// Nothing but null seen (or nothing at all: the elements of arrays that were all empty).
        case unknown
        case bool
        case int
        case double
        /// Strings; `date` when every one was an RFC 3339 date-time.
        case string(date: DateForm?)
        case object(ObjectShape)
        case array(JSONShape)
        /// Values of different kinds (other than whole and fractional numbers).
        case mixed
    }

    /// How RFC 3339 date-times were written.
    enum DateForm: Sendable, Hashable {
        case whole
        /// At least one had fractional seconds.
        case fractional
    }

    var kind: Kind
    /// Null was seen here.
    var nullable: Bool

    /// Objects past this depth are `JSONValue`: no type is written for them, and no deep value is walked.
    static let maximumDepth = 32

    /// The shape of one value.
    init(_ value: JSONValue, depth: Int = 0) {
        nullable = false
        switch value {
        case .null:
            kind = .unknown
            nullable = true
        case .bool:
            kind = .bool
        case .number(let text):
            let whole = !text.contains { $0 == "." || $0 == "e" || $0 == "E" } && Int(text) != nil
            kind = whole ? .int : .double
        case .string(let text):
            kind = .string(date: Self.dateForm(text))
        case .array(let items) where depth < Self.maximumDepth:
            var element = JSONShape(kind: .unknown, nullable: false)
            for item in items { element.merge(JSONShape(item, depth: depth + 1)) }
            kind = .array(element)
        case .object(let members) where depth < Self.maximumDepth:
            var object = ObjectShape()
            object.add(members, depth: depth + 1)
            kind = .object(object)
        case .array, .object:
            kind = .mixed
        }
    }

    init(kind: Kind, nullable: Bool) {
        self.kind = kind
        self.nullable = nullable
    }

    /// Takes in another value's shape seen at the same place.
    mutating func merge(_ other: JSONShape) {
        nullable = nullable || other.nullable
        kind = Self.merged(kind, other.kind)
    }

    static func merged(_ a: Kind, _ b: Kind) -> Kind {
        switch (a, b) {
        case (.unknown, _): return b
        case (_, .unknown): return a
        case (.int, .double), (.double, .int): return .double
        case (.string(let x), .string(let y)):
            guard let x, let y else { return .string(date: nil) }
            return .string(date: x == .fractional || y == .fractional ? .fractional : .whole)
        case (.object(var x), .object(let y)):
            x.merge(y)
            return .object(x)
        case (.array(var x), .array(let y)):
            x.merge(y)
            return .array(x)
        default:
            return a == b ? a : .mixed
        }
    }

    /// Whether `text` is an RFC 3339 date-time as `JSONDecoder`'s ISO 8601 parsing reads it:
    /// `2024-05-01T12:30:00Z`, `…:00.250+02:00`.
    static func dateForm(_ text: String) -> DateForm? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count,
                  bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        func byte(_ index: Int, _ character: Character) -> Bool {
            index < bytes.count && bytes[index] == character.asciiValue
        }
        guard number(0..<4) != nil, byte(4, "-"), let month = number(5..<7), (1...12).contains(month), byte(7, "-"),
              let day = number(8..<10), (1...31).contains(day), byte(10, "T"),
              let hour = number(11..<13), hour < 24, byte(13, ":"), let minute = number(14..<16), minute < 60,
              byte(16, ":"), let second = number(17..<19), second < 60 else { return nil }
        var index = 19
        var form = DateForm.whole
        if byte(index, ".") {
            let digits = bytes[(index + 1)...].prefix { (0x30...0x39).contains($0) }.count
            guard digits > 0 else { return nil }
            index += 1 + digits
            form = .fractional
        }
        if byte(index, "Z") { return index + 1 == bytes.count ? form : nil }
        guard byte(index, "+") || byte(index, "-"), index + 6 == bytes.count,
              let zoneHour = number(index + 1..<index + 3), zoneHour < 24, byte(index + 3, ":"), let zoneMinute = number(index + 4..<index + 6), zoneMinute < 60
        else { return nil }
        return form
    }
}

/// The members of the objects seen at one place: every key in first-seen order, its merged shape, and in
/// how many of the objects it was present.
struct ObjectShape: Sendable, Hashable {
    var keys: [String] = []
    var fields: [String: JSONShape] = [:]
    var present: [String: Int] = [:]
    /// How many objects were merged.
    var count = 0

    /// Whether a key was missing from some object or null in one.
    func isOptional(_ key: String) -> Bool {
        (present[key] ?? 0) < count || fields[key]?.nullable == true
    }

    mutating func add(_ members: [(key: String, value: JSONValue)], depth: Int) {
        count += 1
        var seen: Set<String> = []
        for (key, value) in members where seen.insert(key).inserted {
            record(key, JSONShape(value, depth: depth), times: 1)
        }
    }

    mutating func merge(_ other: ObjectShape) {
        count += other.count
        for key in other.keys {
            if let shape = other.fields[key] { record(key, shape, times: other.present[key] ?? 0) }
        }
    }

    private mutating func record(_ key: String, _ shape: JSONShape, times: Int) {
        if var existing = fields[key] {
            existing.merge(shape)
            fields[key] = existing
        } else {
            keys.append(key)
            fields[key] = shape
        }
        present[key, default: 0] += times
    }
}

/// An ordered list of header fields with case-insensitive lookup. Order and duplicates are kept,
/// because they matter for display, for Set-Cookie and for byte-exact round trips. The one header type:
/// the client core, history, scripts and panes all hold this one.
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
                           ExpressibleByArrayLiteral {
    /// One header field as it was written.
    public struct Field: Sendable, Hashable, Codable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
        /// A field from its name and value.
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) { self.fields = fields }
    public init(_ pairs: [(String, String)]) { self.fields = pairs.map { Field(name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }
    public init(arrayLiteral elements: Field...) { self.init(elements) }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`, in the order the fields were written.
    public subscript(position: Int) -> Field { fields[position] }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            if let newValue { set(name, newValue) } else { remove(name) }
        }
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// All values of `name` joined by commas, as RFC 9110 section 5.3 allows for list-valued fields.
    public func combined(_ name: String) -> String? {
        let all = values(for: name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    public func contains(_ name: String) -> Bool { fields.contains { $0.name.caseInsensitiveEquals(name) } }

    /// Replaces every field called `name` with one field, keeping the position of the first.
    public mutating func set(_ name: String, _ value: String) {
        guard let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[index].value = value
        fields = fields.enumerated().filter { offset, field in
            offset == index || !field.name.caseInsensitiveEquals(name)
        }.map(\.element)
    }

    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }
    /// Appends folded text to the last field's value, separated by one space (an obs-fold continuation).
    package mutating func continueLastValue(with text: String) {
        guard let last = fields.indices.last else { return }
        fields[last].value += fields[last].value.isEmpty ? text : " " + text
    }
    public mutating func remove(_ name: String) { fields.removeAll { $0.name.caseInsensitiveEquals(name) } }
}

extension String {
    /// ASCII case-insensitive comparison, which is what header names and tokens need.
    public func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return zip(utf8, other.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7a)
        }
    }
}

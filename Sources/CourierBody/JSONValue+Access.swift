/// Typed reads of a `JSONValue` and its text as a variable value, for code that walks known
/// documents (Postman collections, environment files, response variables).
extension JSONValue {
    /// The element at `index` of an array; negative counts from the end.
    public subscript(index: Int) -> JSONValue? {
        guard case let .array(items) = self else { return nil }
        let position = index < 0 ? items.count + index : index
        return items.indices.contains(position) ? items[position] : nil
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case let .string(value) = self { value } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case let .array(value) = self { value } else { nil } }
    /// The members in document order, when this is an object.
    public var objectValue: [(key: String, value: JSONValue)]? { if case let .object(value) = self { value } else { nil } }
    /// The flag, when this is `true` or `false`.
    public var boolValue: Bool? { if case let .bool(value) = self { value } else { nil } }

    /// Scalars as plain text (a string without quotes, a whole number without a fraction), containers
    /// as compact JSON: what a `{{variable}}` becomes when substituted.
    public var text: String {
        switch self {
        case .null: "null"
        case let .bool(value): value ? "true" : "false"
        case let .number(source): Self.plainNumber(source)
        case let .string(value): value
        case .array, .object: compactJSON
        }
    }

    /// `3`, `3.0` and `3e0` all read as `3`; other numbers as Swift prints the Double; text that is not
    /// a number (the tokenizer accepted it, so this is only defensive) as written.
    static func plainNumber(_ source: String) -> String {
        if let integer = Int64(source) { return String(integer) }
        guard let value = Double(source) else { return source }
        return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

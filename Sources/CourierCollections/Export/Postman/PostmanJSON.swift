import CourierBody

/// JSON laid out for a file a person may read and diff: objects and arrays one member a line, two spaces a
/// level, strings escaped as `JSONValue.quoted` does.
enum PostmanJSON {
    static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, indent: String, into out: inout String) {
        let inner = indent + "  "
        switch value {
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += inner + JSONValue.quoted(member.key) + ": "
                write(member.value, indent: inner, into: &out)
                out += index < members.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                write(item, indent: inner, into: &out)
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        default:
            out += value.compactJSON
        }
    }
}

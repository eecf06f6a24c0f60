/// The differences between two header lists: names added, removed, or with a changed value.
/// Names compare case-insensitively; repeated headers compare as their joined values.
public struct HeaderDiff: Sendable, Hashable {
    /// One header that differs.
    public enum Change: Sendable, Hashable {
        case added(name: String, value: String)
        case removed(name: String, value: String)
        case changed(name: String, old: String, new: String)
    }

    public var changes: [Change]
    /// Names present in both with the same value.
    public var unchanged: [String]

    /// Compares two header lists given as (name, value) pairs, in the order of `new` then removed names.
    public init(old: [(name: String, value: String)], new: [(name: String, value: String)]) {
        func merged(_ headers: [(name: String, value: String)]) -> [(key: String, name: String, value: String)] {
            var order: [String] = []
            var values: [String: (String, [String])] = [:]
            for header in headers {
                let key = header.name.lowercased()
                if values[key] == nil { order.append(key); values[key] = (header.name, []) }
                values[key]?.1.append(header.value)
            }
            return order.map { ($0, values[$0]!.0, values[$0]!.1.joined(separator: ", ")) }
        }
        let before = merged(old), after = merged(new)
        let beforeByKey = Dictionary(uniqueKeysWithValues: before.map { ($0.key, $0) })
        let afterKeys = Set(after.map(\.key))
        var changes: [Change] = []
        var unchanged: [String] = []
        for header in after {
            if let previous = beforeByKey[header.key] {
                if previous.value == header.value { unchanged.append(header.name) }
                else { changes.append(.changed(name: header.name, old: previous.value, new: header.value)) }
            } else {
                changes.append(.added(name: header.name, value: header.value))
            }
        }
        for header in before where !afterKeys.contains(header.key) {
            changes.append(.removed(name: header.name, value: header.value))
        }
        self.changes = changes
        self.unchanged = unchanged
    }

    /// The changes as lines: `+ Name: value`, `- Name: value`, `~ Name: old → new`.
    public var lines: [String] {
        changes.map { change in
            switch change {
            case let .added(name, value): "+ \(name): \(value)"
            case let .removed(name, value): "- \(name): \(value)"
            case let .changed(name, old, new): "~ \(name): \(old) → \(new)"
            }
        }
    }
}

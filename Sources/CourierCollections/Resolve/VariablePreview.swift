import Foundation

/// `{{…}}` in text being edited, for the explorer: split for colouring, and expanded through the same
/// interpolator `courier run` uses, so a preview and a WebSocket URL resolve as a run would.
public enum VariablePreview {
    /// One piece of a template: literal text or a reference.
    public enum Segment: Sendable, Hashable {
        case text(String)
        case variable(String)
    }

    /// Splits `text` into literal text and `{{…}}` references. An unclosed `{{` is literal text.
    public static func segments(_ text: String) -> [Segment] {
        let scalars = Array(text.unicodeScalars)
        func slice(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        var result: [Segment] = []
        var position = 0
        for reference in VariableReference.scan(text) {
            if reference.range.lowerBound > position { result.append(.text(slice(position..<reference.range.lowerBound))) }
            result.append(.variable(reference.expression))
            position = reference.range.upperBound
        }
        if position < scalars.count { result.append(.text(slice(position..<scalars.count))) }
        return result
    }

    /// Dynamic values (`$uuid`) and earlier responses (`login.response.body.$.token`) are known only when
    /// sending, so they never count as unknown.
    public static func isComputed(_ name: String) -> Bool { name.hasPrefix("$") || ResponseStore.isReference(name) }

    /// Whether `name` has a value now or when sending.
    public static func isKnown(_ name: String, values: [String: String]) -> Bool {
        isComputed(name) || values[name] != nil
    }

    /// `text` with every reference that resolves now replaced; the others stay as written. Dynamic values
    /// are generated only when `dynamic` is set (a view redrawn every frame keeps them as written).
    public static func resolve(_ text: String, values: [String: String], dynamic: Bool = false) -> String {
        guard text.contains("{{") else { return text }
        let definitions = values.keys.sorted().map { VariableDefinition(name: $0, value: values[$0] ?? "") }
        var interpolator = Interpolator(requestName: "preview", local: [], file: definitions,
                                        context: VariableContext(processEnvironment: [:]))
        return expandKnown(text, with: &interpolator, dynamic: dynamic)
    }

    /// `text` with every reference `interpolator` expands replaced; the others (unknown yet, or failing) stay
    /// as written. Dynamic values are generated only when `dynamic` is set.
    static func expandKnown(_ text: String, with interpolator: inout Interpolator, dynamic: Bool) -> String {
        guard text.contains("{{") else { return text }
        return segments(text).map { segment -> String in
            switch segment {
            case .text(let literal): return literal
            case .variable(let name):
                let written = "{{\(name)}}"
                if name.hasPrefix("$") && !dynamic { return written }
                return (try? interpolator.expand(written)) ?? written
            }
        }.joined()
    }
}

/// The small JSONPath subset response variables need: `$`, `.name`, `['name']`, `["name"]` and `[index]`
/// (negative from the end). Filters and wildcards are the body viewer's business, not a variable's.
public enum JSONPathLite {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
    }

    /// Why a path did not lead to a value.
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
    }

    /// Splits `$.a.b[0]['c d']` into steps.
    public static func parse(_ path: String) -> Result<[Step], Failure> {
        var characters = Array(path)
        if characters.first == "$" { characters.removeFirst() }
        var steps: [Step] = []
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case ".":
                index += 1
                let start = index
                while index < characters.count, characters[index] != ".", characters[index] != "[" { index += 1 }
                guard index > start else { return .failure(Failure(message: "empty name in path '\(path)'")) }
                steps.append(.member(String(characters[start..<index])))
            case "[":
                guard let close = characters[index...].firstIndex(of: "]") else {
                    return .failure(Failure(message: "'[' without ']' in path '\(path)'"))
                }
                let inside = String(characters[(index + 1)..<close]).trimmingCharacters(in: .whitespaces)
                if let number = Int(inside) {
                    steps.append(.index(number))
                } else if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"",
                          inside.last == quote {
                    steps.append(.member(String(inside.dropFirst().dropLast())))
                } else {
                    return .failure(Failure(message: "unsupported selector '[\(inside)]' in path '\(path)'"))
                }
                index = close + 1
            default:
                // A bare first name, as in `body.token`, reads as `$.token`.
                let start = index
                while index < characters.count, characters[index] != ".", characters[index] != "[" { index += 1 }
                steps.append(.member(String(characters[start..<index])))
            }
        }
        return .success(steps)
    }

    /// The value at `path` in `json`.
    public static func evaluate(_ path: String, in json: JSONValue) -> Result<JSONValue, Failure> {
        let steps: [Step]
        switch parse(path) {
        case .success(let parsed): steps = parsed
        case .failure(let failure): return .failure(failure)
        }
        var current = json
        for step in steps {
            switch step {
            case .member(let name):
                guard let next = current[name] else { return .failure(Failure(message: "no '\(name)' at path '\(path)'")) }
                current = next
            case .index(let position):
                guard let next = current[position] else {
                    return .failure(Failure(message: "no element [\(position)] at path '\(path)'"))
                }
                current = next
            }
        }
        return .success(current)
    }
}

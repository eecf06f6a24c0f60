import CourierBody

/// What of a `.bru` file Courier's JetBrains script layer runs as Bruno means it: `vars:post-response`
/// values read from the response (`res.body.token`, `res.status`) become `client.global.set`, and
/// `assert` lines with a comparison (`res.status: eq 200`) become `client.test`. Anything else is noted.
enum BrunoScripts {
    /// Bruno's assertion operators that are one JavaScript comparison.
    static let comparisons: [String: String] = [
        "eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=",
    ]

    static func responseScripts(_ file: BruFile, path: String, notes: inout [String]) -> [String] {
        var lines: [String] = []
        for pair in file.block("vars:post-response")?.pairs ?? [] where pair.enabled {
            guard let expression = expression(pair.value), isName(pair.key) else {
                notes.append("\(path):\(pair.line): vars:post-response '\(pair.key)' not converted")
                continue
            }
            lines.append("client.global.set(\(JSONValue.quoted(pair.key)), String(\(expression)));")
        }
        for pair in file.block("assert")?.pairs ?? [] where pair.enabled {
            let words = pair.value.split(separator: " ", maxSplits: 1).map(String.init)
            guard let subject = expression(pair.key), words.count == 2, let comparison = comparisons[words[0]],
                  let operand = literal(words[1]) else {
                notes.append("\(path):\(pair.line): assert '\(pair.key): \(pair.value)' not converted")
                continue
            }
            let name = JSONValue.quoted("\(pair.key): \(pair.value)")
            lines.append("client.test(\(name), function() { client.assert(\(subject) \(comparison) \(operand), "
                         + "\(name)); });")
        }
        return lines.isEmpty ? [] : [lines.joined(separator: "\n")]
    }

    /// `res.status` or `res.body` and a path of plain names: the same in the JetBrains `response` object.
    static func expression(_ text: String) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[0] == "res", parts.dropFirst().allSatisfy(isName) else { return nil }
        if parts[1] == "status", parts.count == 2 { return "response.status" }
        guard parts[1] == "body" else { return nil }
        return (["response", "body"] + parts.dropFirst(2)).joined(separator: ".")
    }

    /// A number, `true`/`false`/`null`, or a quoted string; anything else is text, compared as a string.
    static func literal(_ text: String) -> String? {
        if Double(text) != nil || ["true", "false", "null"].contains(text) { return text }
        let quoted = text.hasPrefix("\"") && text.hasSuffix("\"") || text.hasPrefix("'") && text.hasSuffix("'")
        if text.count >= 2, quoted {
            return JSONValue.quoted(String(text.dropFirst().dropLast()))
        }
        guard !text.contains("{{") else { return nil }
        return JSONValue.quoted(text)
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first,
              first.properties.isAlphabetic || first == "_" || first == "$" else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                              || $0 == "_" || $0 == "$") }
    }
}

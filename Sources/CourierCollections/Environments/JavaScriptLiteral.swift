import Foundation

/// Reads the object a JavaScript configuration file exports (`module.exports = { … }`, `export default { … }`,
/// a `const config = { … }` exported by name, or a function that returns an object literal, as httpyac calls it) as
/// data, without running it: objects, arrays, strings,
/// numbers, `true`, `false` and `null`, with comments and trailing commas. `process.env.NAME` reads as
/// `{{$processEnv NAME}}`, so the value comes from the process environment when a request uses it. Any
/// other expression (a function, a call, a variable) is skipped and its key path listed in `unread`.
struct JavaScriptLiteral {
    /// The exported object, as `JSONSerialization` would give it.
    var object: [String: Any]
    /// Key paths (`environments.dev.token`) whose values are code, not data.
    var unread: [String]

    /// The exported object of `source`; nil when the file exports no object literal Courier can find.
    static func exported(from source: String) -> JavaScriptLiteral? {
        var reader = Reader(Array(source.utf8))
        guard let start = reader.exportStart() else { return nil }
        reader.index = start
        var unread: [String] = []
        guard let object = reader.value(path: "", unread: &unread) as? [String: Any] else { return nil }
        return JavaScriptLiteral(object: object, unread: unread)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// Where the exported object literal starts.
        mutating func exportStart() -> Int? {
            let text = String(decoding: bytes, as: UTF8.self)
            for marker in ["module.exports", "export default"] {
                guard let range = text.range(of: marker) else { continue }
                index = text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound)
                skipBlanks()
                if marker == "module.exports" {
                    guard current == UInt8(ascii: "=") else { continue }
                    index += 1
                    skipBlanks()
                }
                if current == UInt8(ascii: "{") { return index }
                // httpyac calls a configuration that is a function, with no arguments.
                let before = index
                if let result = functionResult() { return result }
                index = before
                // `module.exports = config;` with `const config = { … }` above or below.
                let name = identifier()
                guard !name.isEmpty else { continue }
                for keyword in ["const", "let", "var"] {
                    guard let declaration = text.range(of: "\(keyword) \(name)") else { continue }
                    index = text.utf8.distance(from: text.utf8.startIndex, to: declaration.upperBound)
                    skipBlanks()
                    guard current == UInt8(ascii: "=") else { continue }
                    index += 1
                    skipBlanks()
                    if current == UInt8(ascii: "{") { return index }
                }
            }
            return nil
        }

        /// Where the object literal a function returns starts, for `() => ({ … })`, `(env) => { return { … } }`
        /// and `function () { return { … } }`; nil for any other function (its result needs it run).
        private mutating func functionResult() -> Int? {
            let isFunction = bytes[index...].starts(with: Array("function".utf8))
            if isFunction {
                index += 8
                skipBlanks()
                _ = identifier()
                skipBlanks()
            }
            // The parameters: `(…)`, or one name before an arrow.
            if current == UInt8(ascii: "(") {
                while let byte = current, byte != UInt8(ascii: ")") { index += 1 }
                guard current != nil else { return nil }
                index += 1
            } else if isFunction || identifier().isEmpty {
                return nil
            }
            skipBlanks()
            if !isFunction {
                guard bytes[index...].starts(with: Array("=>".utf8)) else { return nil }
                index += 2
                skipBlanks()
                if current == UInt8(ascii: "(") {
                    index += 1
                    skipBlanks()
                    return current == UInt8(ascii: "{") ? index : nil
                }
            }
            guard current == UInt8(ascii: "{") else { return nil }
            index += 1
            skipBlanks()
            guard bytes[index...].starts(with: Array("return".utf8)) else { return nil }
            index += 6
            skipBlanks()
            return current == UInt8(ascii: "{") ? index : nil
        }

        mutating func skipBlanks() {
            while let byte = current {
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    index += 1
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                    while let next = current, next != 0x0A { index += 1 }
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                        index += 1
                    }
                    index = min(index + 2, bytes.count)
                } else {
                    return
                }
            }
        }

        mutating func identifier() -> String {
            let start = index
            while let byte = current, byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") && index > start)
                    || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) {
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A value at `path`; nil (its key path added to `unread`) when it is code.
        mutating func value(path: String, unread: inout [String]) -> Any? {
            skipBlanks()
            guard let byte = current else { return nil }
            let start = index
            switch byte {
            case UInt8(ascii: "{"): return object(path: path, unread: &unread)
            case UInt8(ascii: "["): return array(path: path, unread: &unread)
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                if let text = string(), atValueEnd() { return text }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
                index += 1
                while let next = current, "0123456789.eE+-_".utf8.contains(next) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self).replacingOccurrences(of: "_", with: "")
                if let number = Double(text), atValueEnd() {
                    return number == number.rounded() && abs(number) < 1e15 ? NSNumber(value: Int64(number))
                                                                              : NSNumber(value: number)
                }
            default:
                let word = identifier()
                if atValueEnd() {
                    switch word {
                    case "true": return true
                    case "false": return false
                    case "null", "undefined": return NSNull()
                    default: break
                    }
                }
                index = start
                if let name = processEnvironmentName() { return "{{$processEnv \(name)}}" }
            }
            index = start
            skipExpression()
            unread.append(path.isEmpty ? "(the export)" : path)
            return nil
        }

        /// `process.env.NAME` or `process.env["NAME"]`, ending the value.
        private mutating func processEnvironmentName() -> String? {
            let start = index
            let prefix = Array("process.env".utf8)
            guard bytes.count >= index + prefix.count, Array(bytes[index..<index + prefix.count]) == prefix else {
                return nil
            }
            index += prefix.count
            var name = ""
            if current == UInt8(ascii: ".") {
                index += 1
                name = identifier()
            } else if current == UInt8(ascii: "[") {
                index += 1
                skipBlanks()
                name = string() ?? ""
                skipBlanks()
                if current == UInt8(ascii: "]") { index += 1 } else { name = "" }
            }
            guard !name.isEmpty, atValueEnd() else { index = start; return nil }
            return name
        }

        /// Whether what follows ends the value (`,`, `}`, `]`, `;` or the end), blanks skipped.
        private mutating func atValueEnd() -> Bool {
            skipBlanks()
            guard let byte = current else { return true }
            return byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                || byte == UInt8(ascii: ";")
        }

        private mutating func object(path: String, unread: inout [String]) -> [String: Any]? {
            index += 1
            var result: [String: Any] = [:]
            while true {
                skipBlanks()
                guard let byte = current else { return result }
                if byte == UInt8(ascii: "}") { index += 1; return result }
                if byte == UInt8(ascii: ",") { index += 1; continue }
                let key: String
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    key = string() ?? ""
                } else if byte == UInt8(ascii: "."), index + 2 < bytes.count {
                    // `...spread`: code.
                    skipExpression()
                    unread.append(path.isEmpty ? "(a spread)" : path + " (a spread)")
                    continue
                } else {
                    key = identifier()
                    if key.isEmpty { skipExpression(); unread.append(path.isEmpty ? "(a key)" : path); continue }
                }
                let keyPath = path.isEmpty ? key : path + "." + key
                skipBlanks()
                guard current == UInt8(ascii: ":") else {
                    // A shorthand property or a method: code.
                    skipExpression()
                    unread.append(keyPath)
                    continue
                }
                index += 1
                if let value = value(path: keyPath, unread: &unread) { result[key] = value }
            }
        }

        private mutating func array(path: String, unread: inout [String]) -> [Any]? {
            index += 1
            var result: [Any] = []
            while true {
                skipBlanks()
                guard let byte = current else { return result }
                if byte == UInt8(ascii: "]") { index += 1; return result }
                if byte == UInt8(ascii: ",") { index += 1; continue }
                if let value = value(path: path + "[\(result.count)]", unread: &unread) { result.append(value) }
            }
        }

        /// A quoted string; a template string with `${…}` is code (nil).
        private mutating func string() -> String? {
            guard let quote = current else { return nil }
            index += 1
            var result: [UInt8] = []
            while let byte = current, byte != quote {
                if quote == UInt8(ascii: "`"), byte == UInt8(ascii: "$"), index + 1 < bytes.count,
                   bytes[index + 1] == UInt8(ascii: "{") { return nil }
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    index += 1
                    switch bytes[index] {
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    default: result.append(bytes[index])
                    }
                } else {
                    result.append(byte)
                }
                index += 1
            }
            guard current == quote else { return nil }
            index += 1
            return String(decoding: result, as: UTF8.self)
        }

        /// Past an expression: to the `,`, `}` or `]` that ends it at its own depth, over strings and comments.
        mutating func skipExpression() {
            var depth = 0
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                    let quote = byte
                    index += 1
                    while let inner = current, inner != quote {
                        index += inner == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                    continue
                case UInt8(ascii: "/") where index + 1 < bytes.count
                    && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")):
                    skipBlanks()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                    if depth == 0 { return }
                    depth -= 1
                case UInt8(ascii: ","), UInt8(ascii: ";"):
                    if depth == 0 { return }
                default: break
                }
                index += 1
            }
        }
    }
}

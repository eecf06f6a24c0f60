import CourierBody
import Foundation

/// `Codable` models inferred from a JSON response: one struct per object shape, nested inside its parent
/// and named from its key (singular for array elements: `users` → `User`); properties in lowerCamelCase
/// with `CodingKeys` wherever a name differs from its key; optional when a key was missing from some
/// object or null in one; `Date` for RFC 3339 date-times; `Double` for numbers both whole and fractional;
/// `JSONValue` for anything else that varies.
public struct SwiftModels: Sendable, Hashable {
    /// The type a response decodes to (`User`, or `Users` for `[User]`).
    public var rootType: String
    /// The declarations, indented for the top level.
    public var declarations: String
    /// Whether some property is a `Date`, and whether any had fractional seconds.
    public var usesDates: Bool
    public var fractionalSeconds: Bool
    /// Whether `JSONValue` must be declared.
    public var usesJSONValue: Bool

    /// Why no models could be made.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The models of `body`, the root named after the request (`listUsers` → `Users`).
    public static func infer(from body: Data, requestName: String) throws(Failure) -> SwiftModels {
        let value: JSONValue
        do { value = try JSONValue.parse(body) } catch {
            throw Failure(description: "the response is not JSON (\(error)): no models to make")
        }
        var writer = Writer()
        let shape = JSONShape(value)
        let root = rootName(requestName)
        let rootType: String
        var lines: [String] = []
        switch shape.kind {
        case .object(let object):
            rootType = root
            lines += writer.structure(root, object, ancestors: [])
        case .array(let element):
            // `Users = [User]`: the element type is the singular of the request's noun.
            let elementName = singular(root) == root ? root + "Item" : singular(root)
            var parentNames: Set<String> = [root]
            let elementType = writer.type(of: element, name: elementName, ancestors: [], siblings: &parentNames,
                                          into: &lines)
            rootType = root
            lines.insert(contentsOf: ["typealias \(root) = [\(elementType)]"] + (lines.isEmpty ? [] : [""]), at: 0)
        default:
            rootType = root
            lines.append("typealias \(root) = \(writer.type(of: shape, name: root))")
        }
        return SwiftModels(rootType: rootType, declarations: lines.joined(separator: "\n"),
                           usesDates: writer.usesDates, fractionalSeconds: writer.fractionalSeconds,
                           usesJSONValue: writer.usesJSONValue)
    }

    /// The root type's name: the request's name without a leading verb (`getUser` → `User`), never one of
    /// the names the generated code or the standard library use.
    static func rootName(_ requestName: String) -> String {
        let verbs: Set<String> = ["get", "list", "fetch", "create", "update", "delete", "post", "put", "patch",
                                  "load", "search", "find", "show", "read", "add", "remove", "send", "query"]
        var words = CodeNames.words(requestName)
        if words.count > 1, verbs.contains(words[0].lowercased()) { words.removeFirst() }
        var name = CodeNames.upperCamel(words.joined(separator: " "), fallback: "Response")
        if name.first?.isNumber == true { name = "Response" + name }
        return SwiftNames.takenTypeNames.contains(name) ? name + "Response" : name
    }

    /// A plural noun's singular (`users` → `user`, `categories` → `category`, `boxes` → `box`); the word
    /// itself when it does not look plural (`data`, `status`).
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("ies"), word.count > 3 { return String(word.dropLast(3)) + "y" }
        for ending in ["sses", "shes", "ches", "xes", "zes"] where lower.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
        if lower.hasSuffix("s"), word.count > 1 { return String(word.dropLast()) }
        return word
    }

    /// Writes the declarations, noting what the decoder and the file need.
    struct Writer {
        var usesDates = false
        var fractionalSeconds = false
        var usesJSONValue = false

        /// A struct for an object shape, its nested types first.
        mutating func structure(_ name: String, _ object: ObjectShape, ancestors: [String]) -> [String] {
            var nested: [String] = []
            var typeNames: Set<String> = []
            var propertyNames: Set<String> = []
            var properties: [(name: String, key: String, type: String)] = []
            for key in object.keys {
                guard let shape = object.fields[key] else { continue }
                let property = CodeNames.unique(Self.propertyName(key), in: &propertyNames)
                var type = type(of: shape, name: CodeNames.upperCamel(key), ancestors: ancestors + [name],
                                siblings: &typeNames, into: &nested)
                if object.isOptional(key) && !type.hasSuffix("?") { type += "?" }
                properties.append((property, key, type))
            }
            var lines = ["struct \(name): Codable, Sendable {"]
            for line in nested { lines.append(line.isEmpty ? "" : "    " + line) }
            if !nested.isEmpty { lines.append("") }
            for property in properties {
                lines.append("    let \(SwiftNames.escaped(property.name)): \(property.type)")
            }
            if properties.contains(where: { $0.name != $0.key }) {
                lines += ["", "    enum CodingKeys: String, CodingKey {"]
                for property in properties {
                    let name = SwiftNames.escaped(property.name)
                    let raw = property.name == property.key ? "" : " = " + SwiftLiteral.string(property.key)
                    lines.append("        case \(name)\(raw)")
                }
                lines.append("    }")
            }
            lines.append("}")
            return lines
        }

        /// The Swift type for a shape at `name`'s place, writing the struct it needs into `lines`.
        mutating func type(of shape: JSONShape, name: String, ancestors: [String] = [], siblings: inout Set<String>,
                           into lines: inout [String]) -> String {
            let base: String
            switch shape.kind {
            case .unknown, .mixed:
                usesJSONValue = true
                base = "JSONValue"
            case .bool: base = "Bool"
            case .int: base = "Int"
            case .double: base = "Double"
            case .string(let date?):
                usesDates = true
                fractionalSeconds = fractionalSeconds || date == .fractional
                base = "Date"
            case .string(nil): base = "String"
            case .object(let object):
                let typeName = Self.typeName(name, ancestors: ancestors, siblings: &siblings)
                if !lines.isEmpty { lines.append("") }
                lines += structure(typeName, object, ancestors: ancestors)
                base = typeName
            case .array(let element):
                let elementName = SwiftModels.singular(name) == name ? name + "Item" : SwiftModels.singular(name)
                base = "[" + type(of: element, name: elementName, ancestors: ancestors, siblings: &siblings,
                                  into: &lines) + "]"
            }
            return shape.nullable && !base.hasSuffix("?") ? base + "?" : base
        }

        /// The shape's type when it needs no struct (scalars, `JSONValue`).
        mutating func type(of shape: JSONShape, name: String) -> String {
            var unused: Set<String> = []
            var lines: [String] = []
            return type(of: shape, name: name, siblings: &unused, into: &lines)
        }

        /// A nested type's name: its key's, unless that hides a type the code uses or an enclosing type
        /// (then prefixed with its parent's), and unique among its siblings.
        static func typeName(_ name: String, ancestors: [String], siblings: inout Set<String>) -> String {
            var candidate = name.first?.isNumber == true ? "Value" + name : name
            if SwiftNames.takenTypeNames.contains(candidate) || ancestors.contains(candidate) {
                candidate = (ancestors.last ?? "") + candidate
            }
            return CodeNames.unique(candidate, in: &siblings)
        }

        /// A key's property name: lowerCamelCase, `_` before a leading digit, `Value` after a word backticks
        /// cannot make usable (`self`).
        static func propertyName(_ key: String) -> String {
            var name = CodeNames.lowerCamel(key, fallback: "value")
            if name.first?.isNumber == true { name = "_" + name }
            if SwiftNames.unusable.contains(name) { name += "Value" }
            return name
        }
    }
}

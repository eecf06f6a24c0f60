import CYaml
import Foundation

/// One YAML document parsed by libyaml, as the values `JSONSerialization` produces (`[String: Any]`,
/// `[Any]`, `String`, `NSNumber`, `NSNull`), so a YAML and a JSON description are read by the same code.
/// Owns libyaml's parser and document, and frees them when done. Plain scalars follow YAML 1.2's core
/// schema (null, booleans, integers, floats); quoted ones are strings; aliases share their anchor's value.
final class YAMLDocument {
    /// Nesting deeper than this (or an alias that contains itself) is refused rather than followed.
    static let maxDepth = 256
    /// Values built at most, per input byte: without aliases every value takes at least one byte of text,
    /// and aliases can make a small file expand exponentially ("billion laughs").
    static let maxValuesPerByte = 4

    private var built = 0
    private var maxValues: Int { inputCount * Self.maxValuesPerByte + 10_000 }

    private var parser = yaml_parser_t()
    private var document = yaml_document_t()
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCount: Int
    private var loaded = false

    /// libyaml is loaded on the first YAML read (see CYaml/library.h); without it, what to install.
    static var cannotStart: CollectionError {
        let reason = courier_yaml_load() ? "libyaml could not start"
            : "reading YAML needs libyaml (\(COURIER_YAML_LIBRARY)); on Debian or Ubuntu: apt-get install libyaml-0-2"
        return .importFailed(source: "the description", reason: reason)
    }

    /// Parses `data`; a syntax error names its line.
    init(_ data: Data) throws(CollectionError) {
        inputCount = data.count
        input = .allocate(capacity: max(1, data.count))
        data.copyBytes(to: input, count: data.count)
        guard yaml_parser_initialize(&parser) == 1 else {
            input.deallocate()
            throw Self.cannotStart
        }
        yaml_parser_set_input_string(&parser, input, inputCount)
        do {
            var scanned = 0
            try Self.checkNesting(input, count: inputCount, scanned: &scanned)
        } catch {
            yaml_parser_delete(&parser)
            input.deallocate()
            throw error
        }
        guard yaml_parser_load(&parser, &document) == 1 else {
            let line = courier_yaml_problem_line(&parser)
            let problem = String(cString: courier_yaml_problem(&parser))
            yaml_parser_delete(&parser)
            input.deallocate()
            throw .importFailed(source: "the description", reason: "YAML line \(line): \(problem)")
        }
        loaded = true
    }

    /// Refuses collections nested deeper than `maxDepth` before libyaml builds the document, reading its
    /// tokens only as far as that: libyaml's scanner looks at every open flow collection (`[`, `{`) for
    /// each token, so building `[[[…` took time quadratic in the depth (100,000 levels, 200 KB: 92 s).
    /// `scanned` counts the tokens read; a syntax error is left for the load to report.
    static func checkNesting(_ input: UnsafeMutablePointer<UInt8>, count: Int,
                             scanned: inout Int) throws(CollectionError) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw cannotStart }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, input, count)
        var depth = 0
        var token = yaml_token_t()
        while yaml_parser_scan(&parser, &token) == 1 {
            scanned += 1
            let type = token.type
            let line = token.start_mark.line + 1
            yaml_token_delete(&token)
            switch type {
            case YAML_FLOW_SEQUENCE_START_TOKEN, YAML_FLOW_MAPPING_START_TOKEN, YAML_BLOCK_SEQUENCE_START_TOKEN,
                 YAML_BLOCK_MAPPING_START_TOKEN:
                depth += 1
                guard depth <= maxDepth else {
                    throw .importFailed(source: "the description",
                                        reason: "YAML line \(line): nested deeper than \(maxDepth) levels")
                }
            case YAML_FLOW_SEQUENCE_END_TOKEN, YAML_FLOW_MAPPING_END_TOKEN, YAML_BLOCK_END_TOKEN:
                depth -= 1
            case YAML_STREAM_END_TOKEN, YAML_NO_TOKEN:
                return
            default:
                break
            }
        }
    }

    deinit {
        if loaded {
            yaml_document_delete(&document)
            yaml_parser_delete(&parser)
            input.deallocate()
        }
    }

    /// The document's root value; NSNull for an empty document.
    func root() throws(CollectionError) -> Any {
        guard yaml_document_get_root_node(&document) != nil else { return NSNull() }
        return try value(of: 1, depth: 0)
    }

    private func value(of index: Int32, depth: Int) throws(CollectionError) -> Any {
        guard depth < Self.maxDepth else {
            throw .importFailed(source: "the description", reason: "YAML nested deeper than \(Self.maxDepth) levels (or an alias contains itself)")
        }
        built += 1
        guard built <= maxValues else {
            throw .importFailed(source: "the description", reason: "YAML aliases expand past \(maxValues) values")
        }
        guard let node = yaml_document_get_node(&document, index) else { return NSNull() }
        switch courier_yaml_node_kind(node) {
        case 1:
            var length = 0
            var plain: Int32 = 0
            let bytes = courier_yaml_scalar(node, &length, &plain)
            let text = bytes.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
            // libyaml's loader tags every untagged scalar `!!str`, so only the style tells a plain one apart.
            return plain == 1 ? Self.resolvePlain(text) : text
        case 2:
            var items: [Any] = []
            for position in 0..<courier_yaml_sequence_count(node) {
                items.append(try value(of: courier_yaml_sequence_item(node, position), depth: depth + 1))
            }
            return items
        case 3:
            var object: [String: Any] = [:]
            for position in 0..<courier_yaml_mapping_count(node) {
                var key: Int32 = 0
                var value: Int32 = 0
                courier_yaml_mapping_pair(node, position, &key, &value)
                let name = try self.value(of: key, depth: depth + 1)
                // A key is a scalar (text, or a number such as a status code). A list or mapping as a key
                // (`? …`) has no meaning in a description, and spelling it as text grows twice as long at
                // each level of nesting (every quote escaped again).
                guard !(name is [Any]) && !(name is [String: Any]) else {
                    throw .importFailed(source: "the description",
                                        reason: "YAML uses a list or mapping as a key (`? …`), which a description never needs")
                }
                object[name as? String ?? "\(name)"] = try self.value(of: value, depth: depth + 1)
            }
            return object
        default:
            return NSNull()
        }
    }

    private static let floatBytes = Set("0123456789.eE+-".utf8)

    /// A plain scalar under the core schema: `null`/`~`/empty, `true`/`false`, integers, floats; else text.
    static func resolvePlain(_ text: String) -> Any {
        switch text {
        case "", "~", "null", "Null", "NULL": return NSNull()
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        case ".inf", "+.inf", ".Inf", "+.Inf": return Double.infinity
        case "-.inf", "-.Inf": return -Double.infinity
        default: break
        }
        // Most scalars in a description are words: only text starting like a number is tried as one.
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return text }
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        if !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
           let integer = Int(text) {
            return integer
        }
        if text.hasPrefix("0x"), let hex = Int(text.dropFirst(2), radix: 16) { return hex }
        if digits.contains(where: \.isNumber), text.utf8.allSatisfy({ floatBytes.contains($0) }), let number = Double(text) {
            return number
        }
        return text
    }
}

import CourierBody
import Foundation

/// A file given where a `.http` file belongs that is another tool's format (a Postman collection, a HAR
/// capture, an OpenAPI description, …). Read as a `.http` file it would become one bogus request made of the
/// whole JSON text; instead the load stops with what to run to convert it.
enum ForeignCollectionFormat: Equatable {
    case postmanCollection, postmanVariables, har, insomnia, openAPI, bruno, json

    /// The format of a file's bytes, or nil for anything that may be a `.http` file. Only text that opens
    /// with `{` is parsed, so reading a real `.http` file costs one byte look.
    static func of(_ data: Data, path: String) -> ForeignCollectionFormat? {
        let name = (path as NSString).lastPathComponent.lowercased()
        if name.hasSuffix(".bru") { return .bruno }
        guard let first = data.first(where: { !Self.isSpace($0) }) else { return nil }
        if first != UInt8(ascii: "{") {
            return Self.looksLikeOpenAPIYAML(data, name: name) ? .openAPI : nil
        }
        guard let root = try? JSONValue.parse(data), case .object = root else {
            return nil
        }
        if root["info"] != nil && root["item"] != nil { return .postmanCollection }
        if root["values"]?.arrayValue != nil && (root["_postman_variable_scope"] != nil || root["name"] != nil) {
            return .postmanVariables
        }
        if root["log"]?["entries"] != nil { return .har }
        if root["resources"] != nil && root["_type"] != nil { return .insomnia }
        if root["openapi"] != nil || root["swagger"] != nil { return .openAPI }
        return .json
    }

    /// Throws the load's error when `start` (the file's first bytes, or all of them) is another tool's format;
    /// the whole file is read for the check only when it opens with `{`.
    static func refuse(_ start: Data, of url: URL, path: String) throws(CollectionError) {
        var data = start
        if data.first(where: { !isSpace($0) }) == UInt8(ascii: "{"), let whole = try? Data(contentsOf: url) {
            data = whole
        }
        guard let format = of(data, path: url.path) else { return }
        throw .syntax(Diagnostic(file: path, line: 1, message: format.message(path: path)))
    }

    /// The message of the load's error: what the file is and the command that converts it.
    func message(path: String) -> String {
        let quoted = path.contains(" ") ? "'\(path)'" : path
        let convert: (String) -> String = { kind in
            "convert it with 'courier import \(kind) \(quoted) -o DIR', then run 'courier run DIR'"
        }
        switch self {
        case .postmanCollection: return "a Postman collection, not a .http file: " + convert("postman")
        case .postmanVariables:
            return "a Postman environment, not a .http file: import it with its collection "
                + "('courier import postman COLLECTION.json \(quoted) -o DIR')"
        case .har: return "a HAR capture, not a .http file: " + convert("har")
        case .insomnia: return "an Insomnia export, not a .http file: " + convert("insomnia")
        case .openAPI: return "an OpenAPI description, not a .http file: " + convert("openapi")
        case .bruno: return "a Bruno request, not a .http file: convert its collection folder with "
            + "'courier import bruno FOLDER -o DIR', then run 'courier run DIR'"
        case .json: return "a JSON file, not a .http file: courier runs .http and .rest files "
            + "('courier import' converts Postman, Insomnia, HAR and OpenAPI files)"
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    /// A YAML OpenAPI description: a `.yaml`/`.yml` file with a top-level `openapi:` or `swagger:` key.
    private static func looksLikeOpenAPIYAML(_ data: Data, name: String) -> Bool {
        guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { return false }
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.split(separator: "\n").contains { $0.hasPrefix("openapi:") || $0.hasPrefix("swagger:") }
    }
}

import CourierBody
import CourierHTTP
import Foundation

/// A Postman Collection v2.1 made from `.http` files, and what could not be carried over.
public struct PostmanExport: Sendable {
    /// The collection's JSON text.
    public var json: String
    /// What was left out or changed (`Orders.http:12: tag @no-redirect not carried over`).
    public var notes: [String]
}

/// Exports a loaded collection to Postman v2.1: one folder per `.http` file (a single file's requests at the
/// top), file variables as the folder's (or the collection's) variables, request variables set by a
/// pre-request script, `< {% %}` and `> {% %}` scripts as pre-request and test events, `Basic`/`Bearer`
/// headers as Postman auth. Variables stay variables: no environment value, private or not, is written.
/// `courier import postman` reads the export back to requests that send the same bytes.
public enum PostmanExporter {
    public static func export(_ collection: LoadedCollection, name: String) -> PostmanExport {
        var notes: [String] = []
        for diagnostic in collection.diagnostics {
            notes.append("\(diagnostic.file):\(diagnostic.line): \(diagnostic.message)")
        }
        var items: [JSONValue] = []
        var collectionVariables: [JSONValue] = []
        let single = collection.files.count == 1
        for loaded in collection.files {
            let file = loaded.file
            let variables = file.fileVariables.map(Self.variable)
            var requests: [JSONValue] = []
            for template in file.requests {
                var converter = PostmanItemConverter(file: file.path)
                if let item = converter.item(template) { requests.append(item) }
                notes += converter.notes
            }
            if single {
                items = requests
                collectionVariables = variables
            } else {
                var members: [(key: String, value: JSONValue)] = [("name", .string(folderName(file.path))),
                                                                    ("item", .array(requests))]
                if !variables.isEmpty { members.append(("variable", .array(variables))) }
                items.append(.object(members))
            }
        }
        var root: [(key: String, value: JSONValue)] = [
            ("info", .object([("name", .string(name)), ("schema", .string(schema))])),
            ("item", .array(items)),
        ]
        if !collectionVariables.isEmpty { root.append(("variable", .array(collectionVariables))) }
        return PostmanExport(json: PostmanJSON.pretty(.object(root)), notes: notes)
    }

    /// The schema a v2.1 collection names, which Postman reads to know the format.
    static let schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    /// `api/users.http` as `api/users`.
    static func folderName(_ path: String) -> String {
        path.hasSuffix(".http") ? String(path.dropLast(5)) : path
    }

    static func variable(_ definition: VariableDefinition) -> JSONValue {
        .object([("key", .string(definition.name)), ("value", .string(definition.value))])
    }
}

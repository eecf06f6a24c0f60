import CourierBody
import CourierCollections
import Foundation

/// `courier run COLLECTION.json`: a Postman collection runs directly, as newman runs one. It is converted exactly as
/// `courier import postman` converts it, into a temporary folder of its own, which the run takes as a folder run
/// (every request, in the collection's order, unless `--name` picks some) and which is removed afterwards; so the
/// results are those of importing, then running the folder.
enum PostmanCollectionRun {
    /// When `invocation.path` is a Postman collection: converts it, points the invocation at the converted folder
    /// and returns that folder; nil (the invocation untouched) for anything else.
    static func convert(_ invocation: inout RunCommand.Invocation) throws -> URL? {
        let url = URL(fileURLWithPath: invocation.path)
        // Only a `.json` file is read whole here: a `.http` file is never parsed as JSON.
        guard url.pathExtension.lowercased() == "json", isCollection(url) else { return nil }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-postman-\(UUID().uuidString)", isDirectory: true)
        // Its environment exports beside it come along, as the project keeps them for `newman run -e`; which one
        // is used follows the rules for environment files (`--env NAME`, or the only one).
        let environments = siblingEnvironments(of: url)
        do {
            _ = try ImportCommand.importPostman([invocation.path] + environments, output: folder.path, quiet: true)
        } catch {
            remove(folder)
            throw error
        }
        let with = environments.map { " " + ($0 as NSString).lastPathComponent }.joined()
        Console.error("note: \(invocation.path) is a Postman collection: running it as 'courier import postman "
            + "\(invocation.path)\(with) -o DIR' converts it (here into a temporary folder, removed after the run)")
        invocation.path = folder.path
        if invocation.names.isEmpty { invocation.all = true }
        return folder
    }

    /// Whether the file at `url` is a Postman collection export.
    static func isCollection(_ url: URL) -> Bool { (try? Data(contentsOf: url)).map(isCollection) ?? false }

    /// Whether `data` is a Postman collection export.
    static func isCollection(_ data: Data) -> Bool {
        guard let root = try? JSONValue.parse(data) else { return false }
        return PostmanVariableExport.kind(of: root) == .collection
    }

    /// The Postman environment exports in the collection's folder (`*postman_environment.json`), by name.
    static func siblingEnvironments(of collection: URL) -> [String] {
        let folder = collection.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.lowercased().hasSuffix("postman_environment.json") }.sorted().compactMap { name in
            let path = folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path), let root = try? JSONValue.parse(data),
                  PostmanVariableExport.kind(of: root) == .environment else { return nil }
            return path
        }
    }

    /// Removes the converted folder.
    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}

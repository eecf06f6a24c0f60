import CourierBody
import CourierCollections
import Foundation

/// `courier import postman FILE.json...`: a collection, environments and globals, each recognised by what it
/// holds, into one folder.
extension ImportCommand {
    /// Writes the collection's `.http` files, then adds the environments (and globals, as `$shared`) to the
    /// folder's environment files, secret values to the private one (0600). No `.http` file is overwritten,
    /// and an environment the folder's files already name is an error before anything is written. `quiet` leaves
    /// out the files written (`courier run` converting a collection into a folder of its own).
    static func importPostman(_ paths: [String], output: String?, quiet: Bool = false) throws -> Int32 {
        var collection: (path: String, data: Data)?
        var exports: [PostmanVariableExport] = []
        for path in paths {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw UsageError("cannot read '\(path)'", command: "import")
            }
            guard let root = try? JSONValue.parse(data) else {
                throw CollectionError.importFailed(source: path, reason: "not valid JSON")
            }
            switch PostmanVariableExport.kind(of: root) {
            case .collection:
                if let first = collection {
                    throw UsageError("two collections ('\(first.path)', '\(path)'); import them one at a time",
                                     command: "import")
                }
                collection = (path, data)
            case .environment, .globals:
                exports.append(try PostmanVariableExport.read(root, file: path))
            case nil:
                throw CollectionError.importFailed(source: path, reason: "neither a Postman collection (v2.1) nor an "
                                                       + "environment or globals export")
            }
        }
        let names = Set(exports.filter { $0.scope != .globals }.flatMap { $0.values.map(\.key) })
        let conversion = try collection.map { try PostmanImporter.convert($0.data, environmentNames: names) }
        if let shared = conversion?.sharedVariables, !shared.isEmpty {
            exports = sharing(shared, in: exports)
        }
        let folder = URL(fileURLWithPath: output ?? ".", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in conversion?.files ?? [] {
            let url = folder.appendingPathComponent(file.name)
            if FileManager.default.fileExists(atPath: url.path) {
                throw UsageError("\(url.path) exists; choose another folder with -o DIR", command: "import")
            }
        }
        let publicURL = folder.appendingPathComponent(EnvironmentSet.publicFileName)
        let privateURL = folder.appendingPathComponent(EnvironmentSet.privateFileName)
        let merged = try EnvironmentFileMerge.merge(exports, existingPublic: try? Data(contentsOf: publicURL),
                                                    existingPrivate: try? Data(contentsOf: privateURL))
        for file in conversion?.files ?? [] {
            let url = folder.appendingPathComponent(file.name)
            try CollectionWriter.write(Data(file.text.utf8), to: url, displayPath: url.path)
            if !quiet { Console.error("wrote \(url.path)") }
        }
        if let text = merged.publicText {
            try CollectionWriter.write(Data(text.utf8), to: publicURL, displayPath: publicURL.path)
            if !quiet { Console.error("wrote \(publicURL.path)") }
        }
        if let text = merged.privateText {
            // Secret values: readable by the user only, and never printed.
            try CollectionWriter.write(Data(text.utf8), to: privateURL, displayPath: privateURL.path,
                                       permissions: 0o600)
            if !quiet { Console.error("wrote \(privateURL.path)") }
        }
        for export in exports where !quiet {
            let secret = export.values.filter(\.isSecret).count
            Console.error("environment '\(export.environmentName)': \(export.values.count) values"
                              + (secret > 0 ? ", \(secret) secret (in \(EnvironmentSet.privateFileName))" : ""))
        }
        for line in conversion?.report ?? [] { Console.error("not converted: \(line)") }
        for note in (conversion?.notes ?? []) + exports.flatMap(\.notes) { Console.error("note: \(note)") }
        let shared = conversion?.sharedVariables ?? []
        let shadowed = shared.filter { value in !value.isSecret && names.contains(value.key) }.map(\.key)
        if !shadowed.isEmpty {
            Console.error("note: collection variables \(shadowed.joined(separator: ", ")) are in $shared, so the "
                          + "environment's values win")
        }
        let secret = shared.filter(\.isSecret).map(\.key)
        if !secret.isEmpty {
            Console.error("note: \(secret.joined(separator: ", ")) hold credentials: they are in "
                          + "\(EnvironmentSet.privateFileName) ($shared), and the .http files name them")
        }
        return 0
    }

    /// The exports with the collection's variables that environments define added to `$shared` (the globals
    /// export, or a new one): below every environment, and above globals of the same name, as in Postman.
    private static func sharing(_ values: [PostmanVariableExport.Value], in exports: [PostmanVariableExport])
        -> [PostmanVariableExport] {
        var exports = exports
        let index = exports.firstIndex { $0.scope == .globals } ?? {
            exports.append(PostmanVariableExport(scope: .globals, values: [], notes: []))
            return exports.count - 1
        }()
        let names = Set(values.map(\.key))
        exports[index].values = exports[index].values.filter { !names.contains($0.key) } + values
        return exports
    }
}

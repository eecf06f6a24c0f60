import CourierCollections
import Foundation

extension ExportCommand {
    /// `courier export postman FILE.http|FOLDER [-o FILE]`: the collection as Postman v2.1 JSON.
    static func exportPostman(_ path: String, output: String?) throws -> Int32 {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw UsageError("no such file or folder '\(path)'", command: "export")
        }
        let collection = CollectionLoader.load(path)
        let name = url.hasDirectoryPath || url.pathExtension.isEmpty ? url.lastPathComponent
                                                                     : url.deletingPathExtension().lastPathComponent
        let export = PostmanExporter.export(collection, name: name)
        for note in export.notes { Console.error("note: \(note)") }
        guard let output else {
            Console.out(export.json)
            return 0
        }
        let target = URL(fileURLWithPath: output)
        try CollectionWriter.write(Data(export.json.utf8), to: target, displayPath: output)
        Console.error("wrote \(output)")
        return collection.diagnostics.contains { $0.severity == .error } ? 1 : 0
    }
}

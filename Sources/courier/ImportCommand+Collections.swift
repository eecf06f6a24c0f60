import CourierCollections
import Foundation

extension ImportCommand {
    /// An Insomnia v4 export: `.http` files per workspace and request group, and its environments.
    static func importInsomnia(_ path: String, output: String?) throws -> Int32 {
        let data = try readSource(path)
        return try write(InsomniaImporter.convert(data, source: path), output: output)
    }

    /// A Bruno collection folder: `.http` files per folder, and its environments.
    static func importBruno(_ path: String, output: String?) throws -> Int32 {
        try write(BrunoImporter.convert(folder: URL(fileURLWithPath: path, isDirectory: true)), output: output)
    }

    private static func write(_ conversion: CollectionConversion, output: String?) throws -> Int32 {
        try ImportFolder.write(conversion.files.map { ImportFolder.File(name: $0.name, text: $0.text) }, into: output)
        for note in conversion.notes { Console.error("note: \(note)") }
        let httpFiles = conversion.output.files.filter { $0.name.hasSuffix(".http") }.count
        Console.error("\(conversion.output.requestCount) requests in \(httpFiles) files")
        return 0
    }
}

import CourierCollections
import Foundation

/// Writes an import's files into its output folder: all of them or none, never over a file already there,
/// the private environment file readable by the user only.
enum ImportFolder {
    /// One file to write, named relative to the folder.
    struct File {
        var name: String
        var text: String
    }

    /// Writes `files` into `folder` (created if missing), saying each on standard error.
    static func write(_ files: [File], into path: String?) throws {
        let folder = URL(fileURLWithPath: path ?? ".", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            let path = folder.appendingPathComponent(file.name).path
            guard !FileManager.default.fileExists(atPath: path) else {
                throw UsageError("\(path) exists; choose another folder with -o DIR", command: "import")
            }
        }
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            // Several Insomnia workspaces go to a folder each.
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            let isPrivate = url.lastPathComponent == EnvironmentSet.privateFileName
            try CollectionWriter.write(Data(file.text.utf8), to: url, displayPath: url.path,
                                       permissions: isPrivate ? 0o600 : nil)
            Console.error("wrote \(url.path)")
        }
    }
}

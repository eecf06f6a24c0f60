import Foundation

/// A `.http` file as loaded, with the fingerprint that guards saving over it.
public struct LoadedFile: Sendable, Hashable {
    public var url: URL
    public var file: HTTPFile
    public var fingerprint: FileFingerprint
    public init(url: URL, file: HTTPFile, fingerprint: FileFingerprint) {
        self.url = url
        self.file = file
        self.fingerprint = fingerprint
    }
}

/// Every `.http` file under a path, the requests they hold, and every problem found on the way.
public struct LoadedCollection: Sendable, Hashable {
    /// The folder environments are searched up to (the loaded folder, or a single file's folder).
    public var root: URL
    public var files: [LoadedFile]
    /// Errors and warnings from every file; a bad file never stops the others from loading.
    public var diagnostics: [Diagnostic]

    /// All requests in file order.
    public var requests: [RequestTemplate] { files.flatMap(\.file.requests) }

    /// The loaded file holding a request.
    public func file(containing id: RequestTemplateID) -> LoadedFile? { files.first { $0.file.path == id.file } }

    /// Only the errors (warnings left out).
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}

/// Loads a `.http` file, or every `.http` / `.rest` file under a folder.
public enum CollectionLoader {
    /// File extensions read as collections.
    public static let extensions: Set<String> = ["http", "rest"]
    /// Folders never searched: tool output and version control.
    public static let skippedFolders: Set<String> = [".build", ".git", "node_modules", ".swiftpm"]

    /// Loads `path`; problems become diagnostics. IDs use paths relative to the folder for a folder and the
    /// path as given for a single file.
    public static func load(_ path: String) -> LoadedCollection {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            return LoadedCollection(root: url.deletingLastPathComponent(), files: [],
                                    diagnostics: [Diagnostic(file: path, line: 1, message: "no such file or folder")])
        }
        if !isFolder.boolValue {
            var collection = LoadedCollection(root: url.deletingLastPathComponent(), files: [], diagnostics: [])
            collection.add(url, displayPath: path)
            return collection
        }
        var collection = LoadedCollection(root: url, files: [], diagnostics: [])
        for file in collectionFiles(under: url) {
            let relative = String(file.path.dropFirst(url.path.count).drop { $0 == "/" })
            collection.add(file, displayPath: relative)
        }
        return collection
    }

    /// Reads and parses one file.
    public static func loadFile(_ url: URL, displayPath: String) throws(CollectionError) -> LoadedFile {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(path: displayPath, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: displayPath, reason: "not valid UTF-8")
        }
        return LoadedFile(url: url, file: HTTPFile(path: displayPath, text: text),
                          fingerprint: FileFingerprint(data: data, modified: FileFingerprint.modificationDate(url)))
    }

    static func collectionFiles(under folder: URL) -> [URL] {
        var found: [URL] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") && !skippedFolders.contains(name) {
            let child = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                found += collectionFiles(under: child)
            } else if extensions.contains(child.pathExtension.lowercased()) {
                found.append(child)
            }
        }
        return found
    }
}

extension LoadedCollection {
    mutating func add(_ url: URL, displayPath: String) {
        do {
            let loaded = try CollectionLoader.loadFile(url, displayPath: displayPath)
            files.append(loaded)
            diagnostics += loaded.file.diagnostics
        } catch {
            diagnostics.append(Diagnostic(file: displayPath, line: 1, message: error.description))
        }
    }
}

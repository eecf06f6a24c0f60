import CourierSecurity
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
    /// Hidden folders searched all the same: httpyac and REST Client users keep their requests in `.http/`
    /// (or `.rest/`). Other hidden folders (`.idea`'s request log, `.vscode`, caches) stay out.
    public static let requestFolders: Set<String> = [".http", ".rest"]

    /// Loads `path`; problems become diagnostics. IDs use paths relative to the folder for a folder and the
    /// path as given for a single file. Temporary files a killed save left beside the collection's files
    /// go too (`AtomicFile.removeAbandoned`).
    public static func load(_ path: String) -> LoadedCollection {
        let collection = load(path, blockLimit: nil).collection
        let folders = Set(collection.files.map { $0.url.deletingLastPathComponent().path })
        for folder in folders { AtomicFile.removeAbandoned(in: URL(fileURLWithPath: folder)) }
        return collection
    }

    /// The start of `path`, for a first screen while the rest loads: whole files in order, then the first
    /// blocks of the next one, about `blocks` blocks in all. The cut falls on a `###` line, so every request
    /// read is the one the whole load gives, with the same ID. `complete` says whether that was everything.
    public static func loadStart(_ path: String, blocks: Int) -> (collection: LoadedCollection, complete: Bool) {
        load(path, blockLimit: blocks)
    }

    private static func load(_ path: String, blockLimit: Int?) -> (collection: LoadedCollection, complete: Bool) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            return (LoadedCollection(root: url.deletingLastPathComponent(), files: [],
                                     diagnostics: [Diagnostic(file: path, line: 1, message: "no such file or folder")]),
                    true)
        }
        var remaining = blockLimit
        if !isFolder.boolValue {
            var collection = LoadedCollection(root: url.deletingLastPathComponent(), files: [], diagnostics: [])
            let complete = collection.add(url, displayPath: path, blockLimit: &remaining)
            return (collection, complete)
        }
        var collection = LoadedCollection(root: url, files: [], diagnostics: [])
        for file in collectionFiles(under: url) {
            if let left = remaining, left <= 0 { return (collection, false) }
            let relative = String(file.path.dropFirst(url.path.count).drop { $0 == "/" })
            guard collection.add(file, displayPath: relative, blockLimit: &remaining) else { return (collection, false) }
        }
        return (collection, true)
    }

    /// Reads and parses one file.
    public static func loadFile(_ url: URL, displayPath: String) throws(CollectionError) -> LoadedFile {
        var unlimited: Int?
        return try loadFile(url, displayPath: displayPath, blockLimit: &unlimited).file
    }

    /// Reads one file and parses it whole, or only its first `blockLimit` blocks (taking them off the
    /// limit); `cut` says whether blocks were left out.
    static func loadFile(_ url: URL, displayPath: String, blockLimit: inout Int?) throws(CollectionError)
        -> (file: LoadedFile, cut: Bool) {
        var data: Data
        var cut = false
        do {
            if let limit = blockLimit {
                (data, cut) = try readStart(of: url, blocks: limit)
                blockLimit = limit - BlockScanner.prefix(of: data, blocks: limit).count
            } else {
                data = try Data(contentsOf: url)
            }
        } catch {
            throw .unreadable(path: displayPath, reason: error.localizedDescription)
        }
        try ForeignCollectionFormat.refuse(data, of: url, path: displayPath)
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: displayPath, reason: "not valid UTF-8")
        }
        let file = LoadedFile(url: url, file: HTTPFile(path: displayPath, text: text),
                              fingerprint: FileFingerprint(data: data, modified: FileFingerprint.modificationDate(url)))
        return (file, cut)
    }

    /// The bytes of the first `blocks` blocks of a file, read in growing chunks so that the start of a huge
    /// file costs only its start; `cut` says whether the file goes on. A block boundary counts only once
    /// its `###` line is read to its end.
    static func readStart(of url: URL, blocks: Int) throws -> (data: Data, cut: Bool) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var data = Data()
        var chunk = 64 * 1024
        while true {
            let more = try handle.read(upToCount: chunk) ?? Data()
            if more.isEmpty { return (data, false) }
            data.append(more)
            if let end = BlockScanner.prefix(of: data, blocks: blocks).end, data[end...].contains(0x0A) {
                return (data.prefix(end), true)
            }
            chunk = min(chunk * 2, 16 * 1024 * 1024)
        }
    }

    /// Why a folder gave no requests: "no .http or .rest files in this folder", and the hidden folders under
    /// it that hold some (searched no deeper than `depth`), with the command that runs them.
    public static func emptyFolderReason(_ folder: URL, shownAs path: String, depth: Int = 3) -> String {
        let hidden = hiddenRequestFolders(under: folder, depth: depth)
        guard let first = hidden.first else { return "no .http or .rest files in this folder" }
        let shown = (path == "." || path.isEmpty ? "" : (path.hasSuffix("/") ? path : path + "/")) + first
        return "no .http or .rest files in this folder; hidden folders are not searched, and "
            + hidden.prefix(3).joined(separator: ", ") + (hidden.count > 3 ? ", …" : "")
            + " hold\(hidden.count == 1 ? "s" : "") some: run 'courier run \(shown)'"
    }

    /// Hidden folders (other than the skipped ones) that hold `.http` or `.rest` files, relative to `folder`.
    static func hiddenRequestFolders(under folder: URL, depth: Int) -> [String] {
        guard depth > 0 else { return [] }
        var found: [String] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !skippedFolders.contains(name) {
            let child = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isFolder), isFolder.boolValue else {
                continue
            }
            if name.hasPrefix("."), !requestFolders.contains(name.lowercased()) {
                if !collectionFiles(under: child, includingHidden: true).isEmpty { found.append(name) }
            } else {
                found += hiddenRequestFolders(under: child, depth: depth - 1).map { name + "/" + $0 }
            }
        }
        return found
    }

    static func collectionFiles(under folder: URL, includingHidden: Bool = false) -> [URL] {
        var found: [URL] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted()
            where (includingHidden || !name.hasPrefix(".") || requestFolders.contains(name.lowercased()))
            && !skippedFolders.contains(name) {
            let child = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                found += collectionFiles(under: child, includingHidden: includingHidden)
            } else if extensions.contains(child.pathExtension.lowercased()) {
                found.append(child)
            }
        }
        return found
    }
}

extension LoadedCollection {
    /// Adds a file, or its first `blockLimit` blocks; false when blocks were left out.
    mutating func add(_ url: URL, displayPath: String, blockLimit: inout Int?) -> Bool {
        do {
            let (loaded, cut) = try CollectionLoader.loadFile(url, displayPath: displayPath, blockLimit: &blockLimit)
            files.append(loaded)
            diagnostics += loaded.file.diagnostics
            return !cut
        } catch {
            if case .syntax(let located) = error {
                diagnostics.append(located)
            } else {
                diagnostics.append(Diagnostic(file: displayPath, line: 1, message: error.description))
            }
            return true
        }
    }
}

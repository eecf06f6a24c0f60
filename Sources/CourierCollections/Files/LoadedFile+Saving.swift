import Foundation

/// Edit-and-save in one step, for the explorer: each returns the file as saved (fresh fingerprint, re-parsed
/// requests with their new IDs) or throws `changedOnDisk` when another program edited the file meanwhile.
extension LoadedFile {
    /// Saves `edited` in place of `request`, rewriting only that request's lines.
    public func saving(_ edited: RequestTemplate, replacing request: RequestTemplate) throws(CollectionError) -> LoadedFile {
        try CollectionWriter.save(file.replacing(request: request, with: edited), over: self)
    }

    /// Adds a new request at the end of the file.
    public func adding(_ request: RequestTemplate) throws(CollectionError) -> LoadedFile {
        try CollectionWriter.save(file.appending(request), over: self)
    }

    /// Adds a copy of `request` right after it.
    public func duplicating(_ request: RequestTemplate, as name: String?) throws(CollectionError) -> LoadedFile {
        try CollectionWriter.save(file.duplicating(request, as: name), over: self)
    }

    /// Renames `request` where its name is written.
    public func renaming(_ request: RequestTemplate, to name: String?) throws(CollectionError) -> LoadedFile {
        try CollectionWriter.save(file.renaming(request, to: name), over: self)
    }

    /// Removes `request`.
    public func deleting(_ request: RequestTemplate) throws(CollectionError) -> LoadedFile {
        try CollectionWriter.save(file.deleting(request), over: self)
    }

    /// Whether the file on disk still has the content Courier loaded.
    public var isUnchangedOnDisk: Bool {
        FileFingerprint.current(of: url).map { $0.sameContent(as: fingerprint) } ?? false
    }

    /// Creates a new collection file (refusing to replace an existing one) and loads it.
    public static func create(at url: URL, displayPath: String, text: String = "") throws(CollectionError) -> LoadedFile {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw .writeFailed(path: displayPath, reason: "a file with that name exists")
        }
        try CollectionWriter.write(Data(text.utf8), to: url, displayPath: displayPath)
        return try CollectionLoader.loadFile(url, displayPath: displayPath)
    }
}

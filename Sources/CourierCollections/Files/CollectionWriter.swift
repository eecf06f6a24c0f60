import Foundation
import CourierSecurity

/// Saves collection files: to a temporary file beside the original, flushed, then renamed over it, so a
/// crash leaves the old or the new version and never a mix; and never over another program's edit.
public enum CollectionWriter {
    /// Writes `text` to the loaded file's place after checking that nobody changed the file since it was
    /// loaded. Returns the file as now loaded (fresh fingerprint, re-parsed).
    @discardableResult
    public static func save(_ text: String, over loaded: LoadedFile) throws(CollectionError) -> LoadedFile {
        let path = loaded.file.path
        // A file deleted since loading counts as changed too: saving would resurrect it silently.
        guard let current = FileFingerprint.current(of: loaded.url), current.sameContent(as: loaded.fingerprint) else {
            throw .changedOnDisk(path: path)
        }
        // A collection opened through a symbolic link is saved where the link points: the link stays a link.
        let target = realLocation(of: loaded.url)
        try write(Data(text.utf8), to: target, displayPath: path)
        AtomicFile.removeAbandoned(in: target.deletingLastPathComponent())
        return try CollectionLoader.loadFile(loaded.url, displayPath: path)
    }

    /// `url` with every symbolic link in it resolved (`realpath`); `url` itself when it cannot be resolved.
    static func realLocation(of url: URL) -> URL {
        guard let resolved = realpath(url.path, nil) else { return url }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved))
    }

    /// Creates or replaces a file atomically without a change check (new files, imports). `permissions`
    /// (0600 for secrets) wins over the replaced file's mode, which is otherwise kept.
    public static func write(_ data: Data, to url: URL, displayPath: String,
                             permissions: mode_t? = nil) throws(CollectionError) {
        do {
            try AtomicFile.write(data, to: url, mode: permissions, sync: true)
        } catch {
            throw .writeFailed(path: displayPath, reason: error.reason)
        }
    }
}

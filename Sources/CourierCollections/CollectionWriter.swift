import Foundation

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
        try write(Data(text.utf8), to: loaded.url, displayPath: path)
        return try CollectionLoader.loadFile(loaded.url, displayPath: path)
    }

    /// Creates or replaces a file atomically without a change check (new files, imports). `permissions`
    /// (0600 for secrets) wins over the replaced file's mode, which is otherwise kept.
    public static func write(_ data: Data, to url: URL, displayPath: String,
                             permissions: mode_t? = nil) throws(CollectionError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let mode = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? NSNumber
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL,
                              permissions ?? mode_t(mode?.uint16Value ?? 0o644))
        guard descriptor >= 0 else { throw .writeFailed(path: displayPath, reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil && rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw .writeFailed(path: displayPath, reason: failure)
        }
    }
}

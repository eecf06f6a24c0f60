import Foundation

/// The one way Courier writes a file whole: collections, environments, cookies, history, cache entries,
/// saved bodies and reports.
///
/// - Atomic: the bytes go to a new temporary file beside the target, which is then renamed over it, so a
///   crash or a kill leaves the old file or the new one, never a part.
/// - Private from the first byte: the temporary file is created with its final mode by `open(2)`
///   (`O_EXCL`: never an existing file or a planted link), so a file meant to be the user's alone (0600) is
///   never readable by others, not even for an instant. (Foundation's `createFile(atPath:attributes:)` and
///   `Data.write(options: .atomic)` create the file with the default mode and change it afterwards.)
public enum AtomicFile {
    /// Why a write failed: the file and the system's reason.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String

        public var description: String { "\(path): \(reason)" }
    }

    /// The mode of a new file that is not private: 0666, less the umask (as `open(2)` applies it).
    public static let ordinaryMode: mode_t = 0o666

    /// Writes `data` to `url` atomically.
    /// - Parameters:
    ///   - mode: the file's mode; nil keeps the mode of the file it replaces, else `ordinaryMode`. The umask
    ///     applies, so it can only narrow a mode.
    ///   - sync: flush the bytes to disk before the rename, for files a user edits (collections); caches and
    ///     history skip it, because it costs milliseconds a file and losing one entry is harmless.
    public static func write(_ data: Data, to url: URL, mode: mode_t? = nil, sync: Bool = false) throws(Failure) {
        let temporary = temporaryURL(beside: url)
        let descriptor: Int32
        do {
            descriptor = try create(temporary, mode: mode ?? existingMode(of: url) ?? ordinaryMode)
        } catch {
            throw Failure(path: url.path, reason: error.reason)
        }
        var failure: String?
        do {
            try writeAll(data, to: descriptor, path: temporary.path)
        } catch {
            failure = error.reason
        }
        if failure == nil && sync && fsync(descriptor) != 0 { failure = reason() }
        // Renamed while still open and locked: a sweep in another process never sees it unlocked.
        if failure == nil && rename(temporary.path, url.path) != 0 { failure = reason() }
        if failure != nil { unlink(temporary.path) }
        close(descriptor)
        if let failure { throw Failure(path: url.path, reason: failure) }
    }

    /// Creates a new file at `url` with `mode` (less the umask) and returns it open for writing and locked
    /// (`flock`, held until it is closed, so `removeAbandoned` knows its writer lives); fails if anything, a
    /// link included, is already there.
    public static func create(_ url: URL, mode: mode_t) throws(Failure) -> Int32 {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw Failure(path: url.path, reason: reason()) }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        return descriptor
    }

    /// Writes every byte of `data` to `descriptor`.
    public static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(Failure) {
        let failed: String? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return reason()
                }
                offset += written
            }
            return nil
        }
        if let failed { throw Failure(path: path, reason: failed) }
    }

    /// Copies every byte of the open file `source` into the open, empty file `destination`: blocks shared
    /// where the file system can clone them (FICLONE), else copied inside the kernel (sendfile), so a 50 MB
    /// body costs no pass through memory. Never a hard link: the copy is a file of its own, with its own mode,
    /// whatever later happens to either.
    public static func copyAll(from source: Int32, to destination: Int32, path: String) throws(Failure) {
        // FICLONE, _IOW(0x94, 9, int): fails at once where the file system does not share blocks.
        if ioctl(destination, UInt(0x4004_9409), source) == 0 { return }
        var offset: off_t = 0
        while true {
            let sent = sendfile(destination, source, &offset, 1 << 30)
            if sent == 0 { return }
            if sent > 0 { continue }
            if errno == EINTR { continue }
            if errno == EINVAL || errno == ENOSYS { break }
            throw Failure(path: path, reason: reason())
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress!, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(path: path, reason: reason()) }
            if count == 0 { return }
            try writeAll(Data(buffer[0..<count]), to: destination, path: path)
            offset += off_t(count)
        }
    }

    /// Where the bytes for `url` are written first: a hidden name in the same folder (a rename within one
    /// file system is atomic), unique to this write.
    public static func temporaryURL(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    }

    /// True for a name `temporaryURL` gives: what a write cut short by a kill leaves behind.
    public static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp") && name.count > 41
    }

    /// How long a temporary file must have been left unchanged before `removeAbandoned` may take it: it
    /// covers the instant between a writer's `open` and its lock.
    public static let abandonedAge: TimeInterval = 60

    /// Removes the temporary files that writes cut short (a kill, a crash, a full disk) left in `folder`,
    /// and returns how many. Only files whose writer is gone go: the kernel drops a dead process's
    /// locks, so a file nobody holds locked, unchanged for `abandonedAge`, has no writer; a live writer's
    /// file, however slow, is never touched.
    @discardableResult
    public static func removeAbandoned(in folder: URL, now: Date = Date()) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where isTemporaryName(name) {
            let path = folder.appendingPathComponent(name).path
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var opened = stat()
            var named = stat()
            guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG,
                  now.timeIntervalSince1970 - TimeInterval(opened.st_mtim.tv_sec) >= abandonedAge,
                  flock(descriptor, LOCK_EX | LOCK_NB) == 0,
                  // Still the file that was checked, not one a new write put under the same name.
                  lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    private static func existingMode(of url: URL) -> mode_t? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

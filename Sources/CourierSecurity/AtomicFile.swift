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
        close(descriptor)
        if failure == nil && rename(temporary.path, url.path) != 0 { failure = reason() }
        if let failure {
            unlink(temporary.path)
            throw Failure(path: url.path, reason: failure)
        }
    }

    /// Creates a new file at `url` with `mode` (less the umask) and returns it open for writing; fails if
    /// anything, a link included, is already there.
    public static func create(_ url: URL, mode: mode_t) throws(Failure) -> Int32 {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw Failure(path: url.path, reason: reason()) }
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

    private static func existingMode(of url: URL) -> mode_t? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

#if canImport(Glibc)
import Glibc
#endif

/// What `lstat` says makes a file the very file it was: device, inode, size and modification time. A file
/// another program changed or replaced since (a rename puts a new inode in place) has another identity. The
/// HTTP cache reuses an entry it decoded while its file keeps its identity; the redirect ledger knows the files
/// a redirect wrote by theirs.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var seconds: Int
    public var nanoseconds: Int

    public init(device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// What the path names, not following a final symbolic link.
    public enum Kind: Sendable { case regularFile, symbolicLink, other }

    /// The identity of what `path` names now and its kind; nil when nothing is there.
    public static func of(_ path: String) -> (identity: FileIdentity, kind: Kind)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                    seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        let kind: Kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .regularFile
        case S_IFLNK: .symbolicLink
        default: .other
        }
        return (identity, kind)
    }
}

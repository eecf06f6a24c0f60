import CourierHTTP
import Foundation

/// What a collection may touch on disk: the one policy every reader of a file a `.http` file names
/// (`< ./body`, `<@ ./body`, multipart parts, `< ./handler.js` scripts) and every writer of `>> file` asks.
///
/// - Reads: regular files inside the collection's folder tree (after resolving symbolic links), or a file
///   or folder the user allowed (`--allow-read PATH`, a yes in the explorer); `/proc`, `/sys` and `/dev`
///   never, even when allowed (the process environment is reachable only through `{{$processEnv NAME}}`).
///   A file sent as it is (a body, a multipart part) streams from disk up to `streamedLimit`; one read
///   into memory stops at `inMemoryLimit`.
/// - Writes: only inside the folder of the `.http` file holding the request, never into a hidden folder
///   (`.git`, `.ssh`) or onto a hidden file, never through a symbolic link, and never over a file Courier's
///   redirects did not write (the `RedirectLedger` knows which) unless the user allows it
///   (`--allow-overwrite`, a yes in the explorer).
public struct CollectionFileAccess: Sendable, Hashable {
    /// What the policy says of one path.
    public enum Decision: Sendable, Hashable {
        /// Go ahead with this file (symbolic links resolved).
        case allowed(URL)
        /// Only with the user's word: the explorer asks about the file, `courier run` names the option.
        case needsConfirmation(URL, reason: String)
        /// Never, whatever the user allows.
        case refused(reason: String)
    }

    /// The largest file a body streams from disk (`< ./file`, also as a multipart part): 16 GiB.
    public static let streamedLimit: Int64 = 16 << 30
    /// The largest file read into memory (`<@ ./file`, `<@latin1 ./file`, a handler script): 64 MiB.
    public static let inMemoryLimit: Int64 = 64 << 20
    /// Folders never read, even when allowed: the kernel's view of processes and devices.
    public static let neverRead = ["/proc", "/sys", "/dev"]

    /// The collection's folder: `< file` reads anywhere under it. Nil: only under the folder of the file
    /// holding the request.
    public var root: URL?
    /// Files and folders the user allowed besides (`--allow-read`, a yes in the explorer), absolute paths.
    public var allowedReads: [String]
    /// `--allow-overwrite`: `>>!` may replace any file it may write.
    public var allowsOverwrite: Bool
    /// Files the user let `>>!` replace (a yes in the explorer), absolute paths.
    public var allowedOverwrites: Set<String>
    /// The record of the files redirects wrote; nil records nothing (then `>>!` replaces only what the
    /// user allows).
    public var ledger: RedirectLedger?

    public init(root: URL? = nil, allowedReads: [String] = [], allowsOverwrite: Bool = false,
                allowedOverwrites: Set<String> = [], ledger: RedirectLedger? = nil) {
        self.root = root
        self.allowedReads = allowedReads
        self.allowsOverwrite = allowsOverwrite
        self.allowedOverwrites = allowedOverwrites
        self.ledger = ledger
    }

    // MARK: Reading

    /// May the request in a file of `folder` read `path` (absolute, or relative to `folder`)? `streamed`:
    /// sent from disk as it is (limit `streamedLimit`), else read into memory (`inMemoryLimit`).
    public func read(_ path: String, from folder: URL, streamed: Bool) -> Decision {
        let requested = Self.url(of: path, in: folder).path
        // As written and with links resolved: /proc/self/… is /proc/PID/…, a link may lead into /dev.
        if let forbidden = Self.forbiddenFolder(of: requested) { return Self.neverRead(forbidden) }
        guard let real = Self.realPath(requested) else { return .refused(reason: Self.lastError()) }
        if let forbidden = Self.forbiddenFolder(of: real) { return Self.neverRead(forbidden) }
        var status = stat()
        guard stat(real, &status) == 0 else { return .refused(reason: Self.lastError()) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .refused(reason: "it is not a regular file (a folder, a device or a pipe)")
        }
        let limit = streamed ? Self.streamedLimit : Self.inMemoryLimit
        if Int64(status.st_size) > limit {
            let what = streamed ? "a body file" : "a file read into memory (<@, an encoding, a script)"
            return .refused(reason: "it is \(Self.size(Int64(status.st_size))); \(what) may be at most "
                            + Self.size(limit))
        }
        let file = URL(fileURLWithPath: real)
        let inside = [root, folder].compactMap { $0 }.contains { tree in
            Self.isInside(real, Self.realPath(tree.path) ?? tree.path)
        }
        let allowed = allowedReads.contains { path in
            let granted = Self.realPath(path) ?? path
            return real == granted || Self.isInside(real, granted)
        }
        if inside || allowed { return .allowed(file) }
        return .needsConfirmation(file, reason: "it is outside the collection's folder")
    }

    /// The bytes of `file`, a file `read` allowed, at most `inMemoryLimit` of them. Opened without
    /// following a link and only when it is still a regular file (not a pipe that would never end).
    public static func contents(of file: URL) throws -> Data {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw POSIXError(.EINVAL)
        }
        guard Int64(status.st_size) <= inMemoryLimit else { throw POSIXError(.EFBIG) }
        let data = try handle.read(upToCount: Int(inMemoryLimit) + 1) ?? Data()
        guard data.count <= Int(inMemoryLimit) else { throw POSIXError(.EFBIG) }
        return data
    }

    /// The bytes of a body's parts, files read, when they come to at most `limit`; nil otherwise.
    public static func contents(of parts: [RequestBodyPart], limit: Int64 = inMemoryLimit) -> Data? {
        var total: Int64 = 0
        for case .file(let url) in parts {
            var status = stat()
            guard stat(url.path, &status) == 0 else { return nil }
            total += Int64(status.st_size)
        }
        for case .data(let data) in parts { total += Int64(data.count) }
        guard total <= limit else { return nil }
        var bytes = Data()
        for part in parts {
            switch part {
            case .data(let data): bytes.append(data)
            case .file(let url):
                guard let data = try? contents(of: url) else { return nil }
                bytes.append(data)
            }
        }
        return bytes
    }

    // MARK: Writing

    /// May a `>>` (or, `replacing`, a `>>!`) of a request in a file of `folder` write `path`? The URL
    /// allowed is inside `folder` with its links resolved; folders on the way may still have to be made.
    /// For `>>`, an existing file is allowed: the caller picks a free numbered name beside it.
    public func write(_ path: String, in folder: URL, replacing: Bool) -> Decision {
        let base = Self.realPath(folder.path) ?? folder.standardizedFileURL.path
        let requested = Self.url(of: path, in: folder).path
        let lexicalBase = folder.standardizedFileURL.path
        guard let rest = [lexicalBase, base].lazy.compactMap({ Self.relative(requested, to: $0) }).first else {
            return .refused(reason: "it is outside the folder of the .http file; a collection saves responses only "
                            + "beside itself")
        }
        let parts = rest.split(separator: "/").map(String.init)
        if let hidden = parts.first(where: { $0.hasPrefix(".") }) {
            return .refused(reason: "'\(hidden)' is hidden; a collection never writes into a hidden folder "
                            + "(.git, .ssh, …) or onto a hidden file")
        }
        var current = base
        for (index, part) in parts.enumerated() {
            current += "/" + part
            let shown = "'" + parts[0...index].joined(separator: "/") + "'"
            var status = stat()
            guard lstat(current, &status) == 0 else {
                // Nothing there: the rest is made new (folders, then the file).
                return .allowed(URL(fileURLWithPath: base + "/" + rest))
            }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFLNK {
                return .refused(reason: "\(shown) is a symbolic link; a collection never writes through one")
            }
            if index < parts.count - 1 {
                if kind != S_IFDIR { return .refused(reason: "\(shown) is not a folder") }
                continue
            }
            guard kind == S_IFREG else { return .refused(reason: "it is not a regular file") }
        }
        let file = URL(fileURLWithPath: current)
        guard replacing, !allowsOverwrite, !allowedOverwrites.contains(current), ledger?.wrote(file) != true else {
            return .allowed(file)
        }
        return .needsConfirmation(file, reason: "it exists and Courier did not write it (or it changed since)")
    }

    // MARK: Paths

    /// `path` (absolute, or relative to `folder`) with `.` and `..` taken out, links left as they are.
    static func url(of path: String, in folder: URL) -> URL {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
        return url.standardizedFileURL
    }

    /// `path` with every symbolic link resolved (`realpath`); nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` lies under the folder `folder` (both absolute and standardized).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" ? path != "/" : path.hasPrefix(folder + "/")
    }

    /// `path` relative to the folder `folder`, or nil when it is not under it.
    static func relative(_ path: String, to folder: String) -> String? {
        guard isInside(path, folder) else { return nil }
        return String(path.dropFirst(folder == "/" ? 1 : folder.count + 1))
    }

    /// The one of `neverRead` that `path` is or lies under.
    static func forbiddenFolder(of path: String) -> String? {
        neverRead.first { path == $0 || isInside(path, $0) }
    }

    static func neverRead(_ folder: String) -> Decision {
        .refused(reason: "a collection never reads files under \(folder), even when allowed (the process environment "
                 + "is reached only through {{$processEnv NAME}})")
    }

    /// `1.5 GB`, `64 MB`: sizes in messages, in binary units.
    static func size(_ bytes: Int64) -> String {
        let units = [(Int64(1) << 30, "GB"), (Int64(1) << 20, "MB"), (Int64(1) << 10, "KB")]
        for (unit, name) in units where bytes >= unit {
            let value = Double(bytes) / Double(unit)
            return (value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)) + " " + name
        }
        return "\(bytes) bytes"
    }

    static func lastError() -> String { String(cString: strerror(errno)).lowercased() }
}

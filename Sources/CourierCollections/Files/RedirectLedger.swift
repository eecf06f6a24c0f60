import CourierSecurity
import Foundation

/// The files `>> file` and `>>! file` wrote, so that `>>!` may replace its own earlier output without
/// asking and nothing else. A file counts as written by Courier while it is the very file written: same
/// device and inode, same size, same modification time; a file another program changed or replaced since
/// is not ours any more. Kept in Courier's state folder (`$XDG_STATE_HOME/courier/redirects.json`), 0600
/// in a 0700 folder, written atomically under a lock; the newest `capacity` files are remembered.
public struct RedirectLedger: Sendable, Hashable {
    /// How many written files are remembered; the oldest are forgotten first (then `>>!` asks again).
    public static let capacity = 2_000

    /// One file as it was left by the write: its path and `FileIdentity`, flat in the ledger's JSON.
    struct Entry: Codable, Hashable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int

        init(path: String, identity: FileIdentity) {
            self.path = path
            (device, inode, size) = (identity.device, identity.inode, identity.size)
            (seconds, nanoseconds) = (identity.seconds, identity.nanoseconds)
        }
    }

    /// The ledger's file.
    public var file: URL

    public init(file: URL) { self.file = file }

    /// The ledger in Courier's state folder for `environment`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> RedirectLedger {
        RedirectLedger(file: StateFolder.url("redirects.json", environment: environment))
    }

    /// Whether `url` is a file a redirect wrote, unchanged since.
    public func wrote(_ url: URL) -> Bool {
        guard let now = Self.entry(for: url.path) else { return false }
        return read().contains(now)
    }

    /// Records `url` as just written by a redirect. A ledger that cannot be written loses nothing but the
    /// record: the next `>>!` over the file asks first.
    public func record(_ url: URL) {
        guard let written = Self.entry(for: url.path) else { return }
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Two runs recording at once would each drop the other's entry: one at a time.
        let lock = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        var entries = read().filter { $0.path != written.path && Self.entry(for: $0.path) == $0 }
        entries.append(written)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        guard let data = try? JSONEncoder().encode(entries) else { return }
        try? AtomicFile.write(data, to: file, mode: 0o600)
    }

    private func read() -> [Entry] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }

    /// The identity of the regular file at `path` now (not following a final link); nil for anything else.
    static func entry(for path: String) -> Entry? {
        guard let (identity, kind) = FileIdentity.of(path), kind == .regularFile else { return nil }
        return Entry(path: path, identity: identity)
    }
}

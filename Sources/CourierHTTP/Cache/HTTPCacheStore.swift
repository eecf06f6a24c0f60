import CourierMessage
import CourierSecurity
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The cache's entries on disk: one `<hash>.entry` JSON file per method and URL (and one more,
/// `<hash>v<variant>.entry`, per further Vary variant), bodies past `inlineLimit` in
/// `<stem>.<id>.body` files beside it. Every write goes to a temporary file then renames, the body
/// before the entry that names it, so a reader sees the old entry or the new one, never half of one.
/// The folder is 0700 and its files 0600. A body is served only when its file is a regular file (never
/// a link) named as the store names them, of the stored length and checksum; an entry that cannot be
/// read or trusted is removed and reported as `.unreadable`, never a crash. Least recently used
/// entries are evicted past `maxBytes`; a hit touches the entry's modification time, the LRU clock.
public final class HTTPCacheStore: Sendable {
    /// What a lookup found.
    public enum Lookup: Sendable {
        case hit(HTTPCacheEntry)
        case miss
        /// The entry existed but could not be read or trusted; it has been removed. The reason is for the log.
        case unreadable(String)
    }

    /// One entry as `courier cache ls` lists it.
    public struct Summary: Sendable, Hashable {
        public var entry: HTTPCacheEntry
        /// Entry and body bytes on disk.
        public var bytes: Int
        public var lastUsed: Date
    }

    public let directory: URL
    public let maxBytes: Int
    /// Bodies up to this size live inside the entry file.
    public let inlineLimit: Int
    /// Where bodies handed to callers are copied (the system's temporary folder unless told).
    public let handoutDirectory: URL

    /// 256 MiB unless told otherwise.
    public static let defaultMaxBytes = 256 * 1024 * 1024
    static let entrySuffix = ".entry"
    static let bodySuffix = ".body"
    /// A body file with no entry is kept this long, because a writer in another process may be
    /// between writing the body and its entry.
    public static let defaultOrphanGrace: TimeInterval = 60
    let orphanGrace: TimeInterval

    /// Serialises this process's writers and evictions (other processes are safe through renames) and
    /// holds the folder's index, nil until first needed.
    let lock = Mutex<CacheFolderIndex?>(nil)
    /// After this many saves the index is rebuilt from the folder before an eviction, to count what
    /// other processes wrote.
    static let rescanInterval = 100
    let savesSinceScan = Mutex(0)
    /// The entries already decoded, reused while their files are unchanged.
    let memo = CacheEntryMemo()

    /// When opening the folder collects what interrupted writers left.
    public enum Housekeeping: Sendable {
        /// At open, when the last collection (by any process) is older than `housekeepingInterval`.
        case whenDue
        /// Not at open: the opener calls `collectLeftoversIfDue()` when it suits it (the explorer, after its
        /// first frame, off the loop thread).
        case later
    }

    /// Leftovers are collected at most this often: listing a folder of thousands of entries and reading the
    /// entries that have body files took 30 ms (3,500 files), which every `courier send --cache-mode` and the
    /// explorer's first frame paid.
    public static let housekeepingInterval: TimeInterval = 3600
    /// The empty file whose modification time says when leftovers were last collected (a dot name, never
    /// taken for an entry; `clear()` removes it with the entries).
    public static let housekeepingMarker = ".courier-housekeeping"

    /// Opens (and creates, mode 0700) the cache in `directory`, or the default one under the user's
    /// cache folder, and (`housekeeping`) collects the bodies that interrupted writers left behind when that
    /// is due. The default folder is closed to other users even when it already existed; a folder the
    /// caller names and that already existed keeps its mode (it may be shared on purpose, or not the
    /// cache's at all).
    public init(directory: URL? = nil, maxBytes: Int = HTTPCacheStore.defaultMaxBytes, inlineLimit: Int = 64 * 1024,
                handoutDirectory: URL = FileManager.default.temporaryDirectory,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                orphanGrace: TimeInterval = HTTPCacheStore.defaultOrphanGrace,
                housekeeping: Housekeeping = .whenDue) throws {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.maxBytes = max(0, maxBytes)
        self.inlineLimit = inlineLimit
        self.handoutDirectory = handoutDirectory
        self.orphanGrace = orphanGrace
        let existed = FileManager.default.fileExists(atPath: self.directory.path)
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // The default folder made by an earlier version is closed to other users too.
        if !existed || self.directory.path == Self.defaultDirectory(environment: environment).path {
            chmod(self.directory.path, 0o700)
        }
        if housekeeping == .whenDue { collectLeftoversIfDue() }
    }

    /// `$XDG_CACHE_HOME/courier/http`, else `~/.cache/courier/http`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("courier", isDirectory: true).appendingPathComponent("http", isDirectory: true)
    }

    /// The identity of an entry. The fragment is never sent, so it does not select a different response.
    /// The URL is kept as a 128-bit digest only, so an entry file never holds a secret the URL carried
    /// (an `access_token=`, a password, a private-environment value in the path).
    public static func key(method: HTTPMethod, url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        let full = components?.string ?? url.absoluteString
        return method.rawValue + " " + CachePolicy.digest(full) + CachePolicy.digest(String(full.reversed()))
    }

    // MARK: - Reading

    /// The stored entry for `method` and `url`: the URL's first variant.
    public func lookup(method: HTTPMethod, url: URL) -> Lookup {
        lock.withLock { index in
            let key = Self.key(method: method, url: url)
            return read(stem: Self.fileStem(key), key: key, index: &index)
        }
    }

    /// The stored variant for `method` and `url` that Vary selects for a request with `headers`; the
    /// URL's first variant when none matches (the caller sees that it differs).
    public func lookup(method: HTTPMethod, url: URL, headers: HTTPHeaders) -> Lookup {
        lock.withLock { index in
            let key = Self.key(method: method, url: url)
            let primary = read(stem: Self.fileStem(key), key: key, index: &index)
            guard case .hit(let entry) = primary, case .fields(let names) = entry.vary, !names.isEmpty,
                  !entry.varyMatches(headers) else { return primary }
            let variant = Self.variantSuffix(entry.vary.selectedValues(of: headers))
            if case .hit(let other) = read(stem: Self.fileStem(key) + variant, key: key, index: &index) {
                return .hit(other)
            }
            return primary
        }
    }

    /// Reads and checks the entry stored under `stem`, removing it when it cannot be trusted.
    private func read(stem: String, key: String, index: inout CacheFolderIndex?) -> Lookup {
        let file = directory.appendingPathComponent(stem + Self.entrySuffix)
        guard let (identity, kind) = FileIdentity.of(file.path) else { return .miss }
        let isLink = kind == .symbolicLink
        do {
            let entry: HTTPCacheEntry
            if !isLink, let known = memo.entry(stem, identity: identity) {
                entry = known
            } else {
                entry = try readEntry(file)
                // Kept only when the file did not change while it was read.
                if !isLink, FileIdentity.of(file.path)?.identity == identity {
                    memo.keep(entry, stem: stem, identity: identity)
                }
            }
            guard entry.key == key else { return .miss }  // a hash clash: someone else's entry
            guard Self.stem(of: entry) == stem else {
                throw CacheBodyFile.Rejected(description: "the entry is stored under another name")
            }
            if let bodyFile = entry.bodyFile {
                guard let checksum = entry.bodyChecksum else {
                    throw CacheBodyFile.Rejected(description: "the body file has no stored checksum")
                }
                _ = try CacheBodyFile(directory: directory, name: bodyFile, stem: stem,
                                      expectedSize: entry.bodySize, expectedChecksum: checksum)
            }
            touch(file, stem: stem, index: &index)
            return .hit(entry)
        } catch {
            removeGroup(stem, index: &index, listing: true)
            return .unreadable("\(file.lastPathComponent): \(error)")
        }
    }

    /// Sets an entry's modification time to now, the LRU clock, without following a link.
    private func touch(_ file: URL, stem: String, index: inout CacheFolderIndex?) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, now]
        guard utimensat(AT_FDCWD, file.path, &times, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        memo.touched(stem, seconds: now.tv_sec, nanoseconds: now.tv_nsec)
        index?.touch(stem, at: Date(timeIntervalSince1970: TimeInterval(now.tv_sec) + TimeInterval(now.tv_nsec) / 1e9))
    }

    /// An entry file, read without following a link.
    func readEntry(_ file: URL) throws -> HTTPCacheEntry {
        try JSONDecoder().decode(HTTPCacheEntry.self,
                                 from: CacheBodyFile(path: file.path, label: file.lastPathComponent).readAll())
    }

    /// The body of an entry for a response handed to a caller: in memory when inline, else a copy of the
    /// cache's file in `handoutDirectory` (a clone where the file system can, never a hard link). Like a body
    /// the transport spilled to disk, the file is the caller's to delete, move or change.
    public func body(of entry: HTTPCacheEntry) -> ResponseBody {
        guard let bodyFile = entry.bodyFile else { return .data(entry.inlineBody ?? Data()) }
        // A temporary body file like a spilled one: removed on every exit path if the caller does not.
        let handout = TemporaryBodyFiles.makeURL(in: handoutDirectory)
        // Registered before it exists, so a signal in between cannot leave it behind.
        TemporaryBodyFiles.register(handout)
        do {
            // The file opened without following links is the one handed out, whatever its name holds now.
            let file = try CacheBodyFile(directory: directory, name: bodyFile, stem: Self.stem(of: entry),
                                         expectedSize: entry.bodySize, expectedChecksum: nil)
            try file.copy(to: handout)
        } catch {
            TemporaryBodyFiles.release(handout)
            // Another process replaced the entry since the lookup: its name still reads as the cache's file.
            return storedBody(of: entry)
        }
        return .file(handout, size: entry.bodySize)
    }

    /// The body as the cache holds it, for reading only: the file may be replaced by a later save.
    public func storedBody(of entry: HTTPCacheEntry) -> ResponseBody {
        if let bodyFile = entry.bodyFile {
            guard CacheBodyFile.isValidName(bodyFile, stem: Self.stem(of: entry)) else { return .data(Data()) }
            return .file(directory.appendingPathComponent(bodyFile), size: entry.bodySize)
        }
        return .data(entry.inlineBody ?? Data())
    }

    /// Every readable entry, most recently used first (lists the folder anew).
    public func summaries() -> [Summary] {
        lock.withLock { index in
            let fresh = CacheFolderIndex.scan(directory)
            index = fresh
            return fresh.groups.compactMap { stem, group -> Summary? in
                guard group.hasEntry,
                      let entry = try? readEntry(directory.appendingPathComponent(stem + Self.entrySuffix)),
                      Self.stem(of: entry) == stem else { return nil }
                return Summary(entry: entry, bytes: group.bytes, lastUsed: group.lastUsed)
            }.sorted { $0.lastUsed > $1.lastUsed }
        }
    }

    /// Bytes on disk for every entry and body (lists the folder anew).
    public var totalBytes: Int {
        lock.withLock { index in
            index = CacheFolderIndex.scan(directory)
            return index?.total ?? 0
        }
    }

    // MARK: - Writing

    /// Stores a full response, replacing any entry for the same key and Vary selection, then evicts
    /// past the size limit. The body is renamed into place before the entry that names it.
    public func save(_ entry: HTTPCacheEntry, body: ResponseBody) throws {
        try lock.withLock { index in
            if index == nil { index = CacheFolderIndex.scan(directory) }
            var entry = entry
            let primary = try? readEntry(entryURL(entry.key))
            // A response that Vary selects for other request headers than the stored one is a further
            // variant beside it, not its replacement.
            entry.variant = nil
            if let primary, primary.key == entry.key, !entry.selectedRequestHeaders.isEmpty,
               case .fields(let names) = primary.vary, !names.isEmpty,
               primary.selectedRequestHeaders != entry.selectedRequestHeaders {
                entry.variant = Self.variantSuffix(entry.selectedRequestHeaders)
            }
            let stem = Self.stem(of: entry)
            let file = directory.appendingPathComponent(stem + Self.entrySuffix)
            let previous = entry.variant == nil ? primary : try? readEntry(file)
            entry.bodySize = body.size
            var group = CacheFolderIndex.Group(lastUsed: Date(), hasEntry: true)
            if body.size <= inlineLimit {
                entry.inlineBody = try body.readAll()
                entry.bodyFile = nil
                entry.bodyChecksum = nil
            } else {
                let name = "\(stem).\(UUID().uuidString.prefix(8).lowercased())\(Self.bodySuffix)"
                let written = try writeBody(body, to: directory.appendingPathComponent(name))
                entry.inlineBody = nil
                entry.bodyFile = name
                entry.bodyChecksum = written.checksum
                entry.bodySize = written.size
                group.files.insert(name)
                group.bytes += written.size
            }
            let encoded = try JSONEncoder().encode(entry)
            try writeAtomically(encoded, to: file)
            if let old = previous?.bodyFile, old != entry.bodyFile, CacheBodyFile.isValidName(old, stem: stem) {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(old))
            }
            group.files.insert(stem + Self.entrySuffix)
            group.bytes += encoded.count
            group.newestFile = group.lastUsed
            index?.set(stem, group)
            evictIfNeeded(keeping: stem, index: &index)
        }
    }

    /// Rewrites an entry's head after a 304, keeping its body.
    public func update(_ entry: HTTPCacheEntry) throws {
        try lock.withLock { index in
            let encoded = try JSONEncoder().encode(entry)
            let stem = Self.stem(of: entry)
            try writeAtomically(encoded, to: directory.appendingPathComponent(stem + Self.entrySuffix))
            if var group = index?.group(stem) {
                group.bytes = encoded.count + (entry.bodyFile == nil ? 0 : entry.bodySize)
                group.lastUsed = Date()
                index?.set(stem, group)
            }
        }
    }

    /// Removes every stored variant for `method` and `url`; returns whether there was one.
    @discardableResult
    public func remove(method: HTTPMethod, url: URL) -> Bool {
        lock.withLock { index in
            let primary = Self.fileStem(Self.key(method: method, url: url))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let stems = Set(names.filter { $0.hasPrefix(primary) && $0.hasSuffix(Self.entrySuffix) }
                .map { String($0.dropLast(Self.entrySuffix.count)) })
                .filter { $0 == primary || $0.hasPrefix(primary + "v") }
            for stem in stems { removeGroup(stem, index: &index, listing: true) }
            return !stems.isEmpty
        }
    }

    // MARK: - Names

    /// Two independent 64-bit digests, so that a clash needs both to collide.
    static func fileStem(_ key: String) -> String {
        CachePolicy.digest(key) + CachePolicy.digest(String(key.reversed()))
    }

    /// `v` and a digest of the request header values a further Vary variant was selected by.
    static func variantSuffix(_ selected: [String: String]) -> String {
        "v" + CachePolicy.digest(selected.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: "\n"))
    }

    /// The file name stem an entry is stored under.
    static func stem(of entry: HTTPCacheEntry) -> String {
        guard let variant = entry.variant, variant.count == 17, variant.first == "v",
              variant.dropFirst().utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return fileStem(entry.key) }
        return fileStem(entry.key) + variant
    }

    func entryURL(_ key: String) -> URL {
        directory.appendingPathComponent(Self.fileStem(key) + Self.entrySuffix)
    }
}

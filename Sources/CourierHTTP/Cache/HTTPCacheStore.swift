import CourierSecurity
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The cache's entries on disk: one `<hash>.entry` JSON file per method and URL, bodies past
/// `inlineLimit` in `<hash>.<id>.body` files beside it. Every write goes to a temporary file then
/// renames, so a reader sees the old entry or the new one, never half of one. An entry that cannot be
/// read is removed and reported as `.unreadable`, never a crash. Least recently used entries are
/// evicted past `maxBytes`; a hit touches the entry's modification time, which is the LRU clock.
public final class HTTPCacheStore: Sendable {
    /// What a lookup found.
    public enum Lookup: Sendable {
        case hit(HTTPCacheEntry)
        case miss
        /// The entry existed but could not be read; it has been removed. The reason is for the log.
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
    /// Where bodies handed to callers are linked (the system's temporary folder unless told).
    public let handoutDirectory: URL

    /// 256 MiB unless told otherwise.
    public static let defaultMaxBytes = 256 * 1024 * 1024
    static let entrySuffix = ".entry"
    static let bodySuffix = ".body"
    /// A body file with no entry is kept this long, because a writer in another process may be
    /// between writing the body and its entry.
    static let orphanGrace: TimeInterval = 60

    /// Serialises this process's writers and evictions (other processes are safe through renames) and
    /// holds the folder's index, nil until first needed.
    let lock = Mutex<CacheFolderIndex?>(nil)
    /// After this many saves the index is rebuilt from the folder before an eviction, to count what
    /// other processes wrote.
    static let rescanInterval = 100
    private let savesSinceScan = Mutex(0)

    /// Opens (and creates) the cache in `directory`, or the default one under the user's cache folder.
    public init(directory: URL? = nil, maxBytes: Int = HTTPCacheStore.defaultMaxBytes, inlineLimit: Int = 64 * 1024,
                handoutDirectory: URL = FileManager.default.temporaryDirectory,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.maxBytes = max(0, maxBytes)
        self.inlineLimit = inlineLimit
        self.handoutDirectory = handoutDirectory
        // Entries hold responses to authenticated requests: the folder is the user's alone (0700), also
        // when it existed already with wider modes, and every file in it is 0600.
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(self.directory.path, 0o700)
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

    /// The stored entry for `method` and `url`.
    public func lookup(method: HTTPMethod, url: URL) -> Lookup {
        lock.withLock { index in
            let key = Self.key(method: method, url: url)
            let file = entryURL(key)
            guard FileManager.default.fileExists(atPath: file.path) else { return .miss }
            do {
                let entry = try JSONDecoder().decode(HTTPCacheEntry.self, from: Data(contentsOf: file))
                guard entry.key == key else { return .miss }  // a hash clash: someone else's entry
                if let bodyFile = entry.bodyFile,
                   !FileManager.default.fileExists(atPath: directory.appendingPathComponent(bodyFile).path) {
                    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: bodyFile])
                }
                let now = Date()
                try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: file.path)
                index?.touch(Self.fileStem(key), at: now)
                return .hit(entry)
            } catch {
                removeGroup(Self.fileStem(key), index: &index, listing: true)
                return .unreadable("\(file.lastPathComponent): \(error)")
            }
        }
    }

    /// The body of an entry for a response handed to a caller: in memory when inline, else a hard link
    /// (or copy) of the cache's file in `handoutDirectory`. Like a body the transport spilled to disk,
    /// the file is the caller's to delete; deleting it leaves the entry intact.
    public func body(of entry: HTTPCacheEntry) -> ResponseBody {
        guard let bodyFile = entry.bodyFile else { return .data(entry.inlineBody ?? Data()) }
        let stored = directory.appendingPathComponent(bodyFile)
        let handout = handoutDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString).body")
        do {
            try FileManager.default.linkItem(at: stored, to: handout)
        } catch {
            do { try FileManager.default.copyItem(at: stored, to: handout) } catch { return storedBody(of: entry) }
        }
        return .file(handout, size: entry.bodySize)
    }

    /// The body as the cache holds it, for reading only: the file may be replaced by a later save.
    public func storedBody(of entry: HTTPCacheEntry) -> ResponseBody {
        if let bodyFile = entry.bodyFile {
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
                      let data = try? Data(contentsOf: directory.appendingPathComponent(stem + Self.entrySuffix)),
                      let entry = try? JSONDecoder().decode(HTTPCacheEntry.self, from: data) else { return nil }
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

    /// Stores a full response, replacing any entry for the same key, then evicts past the size limit.
    public func save(_ entry: HTTPCacheEntry, body: ResponseBody) throws {
        try lock.withLock { index in
            if index == nil { index = CacheFolderIndex.scan(directory) }
            var entry = entry
            let stem = Self.fileStem(entry.key)
            let previous = try? JSONDecoder().decode(HTTPCacheEntry.self, from: Data(contentsOf: entryURL(entry.key)))
            entry.bodySize = body.size
            var group = CacheFolderIndex.Group(lastUsed: Date(), hasEntry: true)
            if body.size <= inlineLimit {
                entry.inlineBody = try body.readAll()
                entry.bodyFile = nil
            } else {
                let name = "\(stem).\(UUID().uuidString.prefix(8).lowercased())\(Self.bodySuffix)"
                try writeBody(body, to: directory.appendingPathComponent(name))
                entry.inlineBody = nil
                entry.bodyFile = name
                group.files.insert(name)
                group.bytes += body.size
            }
            let encoded = try JSONEncoder().encode(entry)
            try writeAtomically(encoded, to: entryURL(entry.key))
            if let old = previous?.bodyFile, old != entry.bodyFile {
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
            try writeAtomically(encoded, to: entryURL(entry.key))
            let stem = Self.fileStem(entry.key)
            if var group = index?.group(stem) {
                group.bytes = encoded.count + (entry.bodyFile == nil ? 0 : entry.bodySize)
                group.lastUsed = Date()
                index?.set(stem, group)
            }
        }
    }

    /// Removes the entry for `method` and `url`; returns whether there was one.
    @discardableResult
    public func remove(method: HTTPMethod, url: URL) -> Bool {
        lock.withLock { index in
            let key = Self.key(method: method, url: url)
            guard let data = try? Data(contentsOf: entryURL(key)) else { return false }
            let entry = try? JSONDecoder().decode(HTTPCacheEntry.self, from: data)
            if let bodyFile = entry?.bodyFile {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(bodyFile))
            }
            removeGroup(Self.fileStem(key), index: &index, listing: entry == nil)
            return true
        }
    }

    /// Removes every entry; returns how many there were.
    @discardableResult
    public func clear() throws -> Int {
        try lock.withLock { index in
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            for name in names where name.hasSuffix(Self.entrySuffix) || name.hasSuffix(Self.bodySuffix)
                || name.hasPrefix(".tmp-") {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            index = CacheFolderIndex()
            return names.filter { $0.hasSuffix(Self.entrySuffix) }.count
        }
    }

    // MARK: - Eviction

    /// Evicts least recently used entries once the indexed total passes the limit, after rebuilding the
    /// index from the folder when it may have missed other processes' writes.
    private func evictIfNeeded(keeping newest: String, index: inout CacheFolderIndex?) {
        let saves = savesSinceScan.withLock { count in
            count += 1
            return count
        }
        guard let current = index, current.total > maxBytes else { return }
        if saves >= Self.rescanInterval {
            index = CacheFolderIndex.scan(directory)
            savesSinceScan.withLock { $0 = 0 }
        }
        guard let scanned = index else { return }
        for stem in scanned.evictions(limit: maxBytes, keeping: newest, now: Date(), orphanGrace: Self.orphanGrace) {
            removeGroup(stem, index: &index, listing: false)
        }
    }

    /// Deletes the files of one entry: those the index knows, or every `<stem>.*` when `listing`.
    func removeGroup(_ stem: String, index: inout CacheFolderIndex?, listing: Bool) {
        var names = index?.remove(stem)?.files ?? []
        names.insert(stem + Self.entrySuffix)
        if listing || index == nil, let all = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            names.formUnion(all.filter { $0.hasPrefix(stem + ".") })
        }
        for name in names { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }

    // MARK: - Files

    /// Two independent 64-bit digests, so that a clash needs both to collide.
    static func fileStem(_ key: String) -> String {
        CachePolicy.digest(key) + CachePolicy.digest(String(key.reversed()))
    }

    func entryURL(_ key: String) -> URL {
        directory.appendingPathComponent(Self.fileStem(key) + Self.entrySuffix)
    }

    func writeAtomically(_ data: Data, to destination: URL) throws {
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        do {
            try writeNew(data, to: temporary)
            try rename(temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// A spilled body is hard-linked when it can be (no copy of a large file), else copied.
    func writeBody(_ body: ResponseBody, to destination: URL) throws {
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        do {
            switch body {
            case .data(let data):
                try writeNew(data, to: temporary)
            case .file(let source, _):
                do {
                    try FileManager.default.linkItem(at: source, to: temporary)
                } catch {
                    try FileManager.default.copyItem(at: source, to: temporary)
                }
                chmod(temporary.path, 0o600)
            }
            try rename(temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes a new file with plain POSIX calls: Foundation's Data.write syncs to disk on Linux, which
    /// costs milliseconds per entry; the rename that follows is what makes the write atomic.
    private func writeNew(_ data: Data, to destination: URL) throws {
        let descriptor = Glibc.open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw posixError(destination) }
        defer { Glibc.close(descriptor) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError(destination)
                }
                offset += written
            }
        }
    }

    private func posixError(_ url: URL) -> Error {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": Int(errno)])
    }

    /// rename(2) replaces the destination in one step, which FileManager's move does not.
    private func rename(_ source: URL, to destination: URL) throws {
        guard Glibc.rename(source.path, destination.path) == 0 else { throw posixError(destination) }
    }
}

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

    /// Serialises this process's writers and evictions; other processes are safe through renames.
    private let lock = Mutex(())

    /// Opens (and creates) the cache in `directory`, or the default one under the user's cache folder.
    public init(directory: URL? = nil, maxBytes: Int = HTTPCacheStore.defaultMaxBytes, inlineLimit: Int = 64 * 1024,
                handoutDirectory: URL = FileManager.default.temporaryDirectory,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.maxBytes = max(0, maxBytes)
        self.inlineLimit = inlineLimit
        self.handoutDirectory = handoutDirectory
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
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
    public static func key(method: HTTPMethod, url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        return method.rawValue + " " + (components?.string ?? url.absoluteString)
    }

    // MARK: - Reading

    /// The stored entry for `method` and `url`.
    public func lookup(method: HTTPMethod, url: URL) -> Lookup {
        lock.withLock { _ in
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
                try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
                return .hit(entry)
            } catch {
                removeFiles(prefix: Self.fileStem(key))
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

    /// Every readable entry, most recently used first.
    public func summaries() -> [Summary] {
        lock.withLock { _ in
            groups().compactMap { group -> Summary? in
                guard let entryFile = group.entryFile,
                      let data = try? Data(contentsOf: entryFile),
                      let entry = try? JSONDecoder().decode(HTTPCacheEntry.self, from: data) else { return nil }
                return Summary(entry: entry, bytes: group.bytes, lastUsed: group.lastUsed)
            }.sorted { $0.lastUsed > $1.lastUsed }
        }
    }

    /// Bytes on disk for every entry and body.
    public var totalBytes: Int { lock.withLock { _ in groups().reduce(0) { $0 + $1.bytes } } }

    // MARK: - Writing

    /// Stores a full response, replacing any entry for the same key, then evicts past the size limit.
    public func save(_ entry: HTTPCacheEntry, body: ResponseBody) throws {
        try lock.withLock { _ in
            var entry = entry
            let stem = Self.fileStem(entry.key)
            let previous = try? JSONDecoder().decode(HTTPCacheEntry.self, from: Data(contentsOf: entryURL(entry.key)))
            entry.bodySize = body.size
            if body.size <= inlineLimit {
                entry.inlineBody = try body.readAll()
                entry.bodyFile = nil
            } else {
                let name = "\(stem).\(UUID().uuidString.prefix(8).lowercased())\(Self.bodySuffix)"
                try writeBody(body, to: directory.appendingPathComponent(name))
                entry.inlineBody = nil
                entry.bodyFile = name
            }
            try writeAtomically(JSONEncoder().encode(entry), to: entryURL(entry.key))
            if let old = previous?.bodyFile, old != entry.bodyFile {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(old))
            }
            evict(keeping: stem)
        }
    }

    /// Rewrites an entry's head after a 304, keeping its body.
    public func update(_ entry: HTTPCacheEntry) throws {
        try lock.withLock { _ in try writeAtomically(JSONEncoder().encode(entry), to: entryURL(entry.key)) }
    }

    /// Removes the entry for `method` and `url`; returns whether there was one.
    @discardableResult
    public func remove(method: HTTPMethod, url: URL) -> Bool {
        lock.withLock { _ in
            let key = Self.key(method: method, url: url)
            let existed = FileManager.default.fileExists(atPath: entryURL(key).path)
            removeFiles(prefix: Self.fileStem(key))
            return existed
        }
    }

    /// Removes every entry; returns how many there were.
    @discardableResult
    public func clear() throws -> Int {
        try lock.withLock { _ in
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            for name in names where name.hasSuffix(Self.entrySuffix) || name.hasSuffix(Self.bodySuffix)
                || name.hasPrefix(".tmp-") {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            return names.filter { $0.hasSuffix(Self.entrySuffix) }.count
        }
    }

    // MARK: - Files

    /// Two independent 64-bit digests, so that a clash needs both to collide.
    static func fileStem(_ key: String) -> String {
        CachePolicy.digest(key) + CachePolicy.digest(String(key.reversed()))
    }

    private func entryURL(_ key: String) -> URL {
        directory.appendingPathComponent(Self.fileStem(key) + Self.entrySuffix)
    }

    private func writeAtomically(_ data: Data, to destination: URL) throws {
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
    private func writeBody(_ body: ResponseBody, to destination: URL) throws {
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
        let descriptor = Glibc.open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
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

    private func removeFiles(prefix stem: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(stem + ".") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    // MARK: - Eviction

    /// The files of one entry on disk.
    private struct Group {
        var stem: String
        var entryFile: URL?
        var bytes = 0
        var lastUsed = Date.distantPast
        var newestFile = Date.distantPast
    }

    private func groups() -> [Group] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var groups: [String: Group] = [:]
        for name in names where !name.hasPrefix(".") {
            guard name.hasSuffix(Self.entrySuffix) || name.hasSuffix(Self.bodySuffix),
                  let stem = name.split(separator: ".").first.map(String.init) else { continue }
            let url = directory.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            var group = groups[stem] ?? Group(stem: stem)
            group.bytes += size
            group.newestFile = max(group.newestFile, modified)
            if name.hasSuffix(Self.entrySuffix) {
                group.entryFile = url
                group.lastUsed = modified
            }
            groups[stem] = group
        }
        return Array(groups.values)
    }

    /// Removes least recently used entries until the total fits; orphaned bodies go first.
    private func evict(keeping newest: String) {
        var all = groups()
        var total = all.reduce(0) { $0 + $1.bytes }
        let now = Date()
        for orphan in all where orphan.entryFile == nil && now.timeIntervalSince(orphan.newestFile) > Self.orphanGrace {
            removeFiles(prefix: orphan.stem)
            total -= orphan.bytes
        }
        guard total > maxBytes else { return }
        all.removeAll { $0.entryFile == nil }
        for group in all.sorted(by: { $0.lastUsed < $1.lastUsed }) where total > maxBytes {
            // The entry just written goes last: a limit smaller than one response still stores nothing else.
            if group.stem == newest { continue }
            removeFiles(prefix: group.stem)
            total -= group.bytes
        }
        if total > maxBytes { removeFiles(prefix: newest) }
    }
}

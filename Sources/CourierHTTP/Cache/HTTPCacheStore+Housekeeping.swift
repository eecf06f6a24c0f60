import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CourierSecurity

/// The store's housekeeping: clearing, evicting, collecting what interrupted writers left, and the
/// plain file writes everything else is built on. Only files named as the store names them are
/// ever removed; anything else in the folder is left alone.
extension HTTPCacheStore {
    // MARK: - Clearing and leftovers

    /// Removes every entry the store wrote, with the bodies they name, and collects leftovers;
    /// returns how many entries there were. Other files in the folder are kept.
    @discardableResult
    public func clear() throws -> Int {
        try lock.withLock { index in
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            var removed = 0
            for name in names where name.hasSuffix(Self.entrySuffix) {
                let stem = String(name.dropLast(Self.entrySuffix.count))
                let file = directory.appendingPathComponent(name)
                guard Self.isStoreStem(stem), let entry = try? readEntry(file), Self.stem(of: entry) == stem
                else { continue }
                if let body = entry.bodyFile, CacheBodyFile.isValidName(body, stem: stem) {
                    try? FileManager.default.removeItem(at: directory.appendingPathComponent(body))
                }
                try? FileManager.default.removeItem(at: file)
                removed += 1
            }
            index = nil
            collectLeftovers(index: &index)
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(Self.housekeepingMarker))
            return removed
        }
    }

    /// Collects leftovers when no process has in the last `housekeepingInterval` (or the marker saying when
    /// is from the future): one `stat` when it is not due.
    public func collectLeftoversIfDue(now: Date = Date()) {
        var info = stat()
        if stat(directory.appendingPathComponent(Self.housekeepingMarker).path, &info) == 0 {
            let elapsed = now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec)
            if elapsed >= 0 && elapsed < Self.housekeepingInterval { return }
        }
        collectLeftovers()
    }

    /// Removes bodies no entry names and temporary files, once older than `orphanGrace`, now, and notes
    /// the time in the folder's marker.
    public func collectLeftovers() {
        lock.withLock { index in collectLeftovers(index: &index) }
        let marker = open(directory.appendingPathComponent(Self.housekeepingMarker).path,
                          O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard marker >= 0 else { return }
        futimens(marker, nil)
        close(marker)
    }

    /// Removes bodies no entry names and temporary files, once older than `orphanGrace` (a writer in
    /// another process may still be between its body and its entry).
    func collectLeftovers(index: inout CacheFolderIndex?) {
        guard let files = FolderListing.files(in: directory) else { return }
        let now = Date()
        let modified = Dictionary(files.map { ($0.name, $0.modified) }, uniquingKeysWith: { first, _ in first })
        func isOld(_ name: String) -> Bool {
            guard let modified = modified[name] else { return false }
            return now.timeIntervalSince(modified) >= orphanGrace
        }
        var named: [String: String?] = [:]  // stem -> the body its entry names
        for name in files.map(\.name) {
            // `.tmp-…` is what versions before AtomicFile left.
            if AtomicFile.isTemporaryName(name) || name.hasPrefix(".tmp-") {
                if isOld(name) { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
                continue
            }
            guard name.hasSuffix(Self.bodySuffix), let stem = name.split(separator: ".").first.map(String.init),
                  Self.isStoreStem(stem), CacheBodyFile.isValidName(name, stem: stem) else { continue }
            if named[stem] == nil {
                let entryName = stem + Self.entrySuffix
                named[stem] = modified[entryName] != nil
                    ? (try? readEntry(directory.appendingPathComponent(entryName)))?.bodyFile : .some(nil)
            }
            let current: String? = named[stem] ?? nil
            guard current != name, isOld(name) else { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        index = nil
    }

    /// The stem of a file named as the store names them, `<stem>.entry` or `<stem>.<id>.body` (the text
    /// before the first dot, a store stem); nil for any other name.
    static func storeStem(of name: String) -> String? {
        let utf8 = name.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let rest = utf8[dot...]
        guard rest.elementsEqual(entrySuffix.utf8)
                || (rest.count > bodySuffix.utf8.count && rest.suffix(bodySuffix.utf8.count).elementsEqual(bodySuffix.utf8))
        else { return nil }
        let stem = String(name[..<dot])
        return isStoreStem(stem) ? stem : nil
    }

    /// A stem the store writes: 32 hex digits, optionally `v` and 16 more for a further variant.
    static func isStoreStem(_ stem: String) -> Bool {
        let utf8 = Array(stem.utf8)
        func isHex(_ byte: UInt8) -> Bool { (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) }
        if utf8.count == 32 { return utf8.allSatisfy(isHex) }
        return utf8.count == 49 && utf8[32] == UInt8(ascii: "v") && utf8[..<32].allSatisfy(isHex)
            && utf8[33...].allSatisfy(isHex)
    }

    // MARK: - Eviction

    /// Evicts least recently used entries once the indexed total passes the limit, after rebuilding the
    /// index from the folder when it may have missed other processes' writes.
    func evictIfNeeded(keeping newest: String, index: inout CacheFolderIndex?) {
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
        for stem in scanned.evictions(limit: maxBytes, keeping: newest, now: Date(), orphanGrace: orphanGrace) {
            removeGroup(stem, index: &index, listing: false)
        }
    }

    /// Deletes the files of one entry: those the index knows, or every `<stem>.*` when `listing`.
    func removeGroup(_ stem: String, index: inout CacheFolderIndex?, listing: Bool) {
        memo.forget(stem)
        var names = index?.remove(stem)?.files ?? []
        names.insert(stem + Self.entrySuffix)
        if listing || index == nil, let all = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            names.formUnion(all.filter { $0.hasPrefix(stem + ".") })
        }
        for name in names { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }

    // MARK: - Files

    /// Entries are private (0600 from the first byte) and written atomically.
    func writeAtomically(_ data: Data, to destination: URL) throws {
        try AtomicFile.write(data, to: destination, mode: 0o600)
    }

    /// A spilled body is copied (cloned where the file system can, else inside the kernel), never
    /// hard-linked: the spill may become the user's `-o FILE`, whose mode and fate are not the cache's.
    /// Returns the size and checksum of what was written, read back from the file itself.
    func writeBody(_ body: ResponseBody, to destination: URL) throws -> (size: Int, checksum: String) {
        let temporary = AtomicFile.temporaryURL(beside: destination)
        do {
            switch body {
            case .data(let data):
                let descriptor = try AtomicFile.create(temporary, mode: 0o600)
                defer { Glibc.close(descriptor) }
                try AtomicFile.writeAll(data, to: descriptor, path: temporary.path)
            case .file(let source, _):
                let input = try CacheBodyFile(path: source.path, label: source.lastPathComponent)
                let descriptor = try AtomicFile.create(temporary, mode: 0o600)
                defer { Glibc.close(descriptor) }
                try AtomicFile.copyAll(from: input.descriptor, to: descriptor, path: temporary.path)
            }
            let file = try CacheBodyFile(path: temporary.path, label: destination.lastPathComponent)
            let written = (file.size, try file.checksum())
            try rename(temporary, to: destination)
            return written
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
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

import CourierSecurity
import Foundation

/// What the cache folder holds, by entry: its files, their bytes, and when it was last used. Built by
/// one listing of the folder, then kept up to date by the store's own writes, so that a save does not
/// list the folder again; the store lists it anew only when the total passes its limit.
struct CacheFolderIndex {
    /// The files of one entry (`<stem>.entry` and its `<stem>.<id>.body`).
    struct Group {
        var files: Set<String> = []
        var bytes = 0
        /// The entry file's modification time, which a hit touches: the LRU clock.
        var lastUsed = Date.distantPast
        var hasEntry = false
        var newestFile = Date.distantPast

        mutating func add(_ name: String, size: Int, modified: Date, isEntry: Bool) {
            files.insert(name)
            bytes += size
            newestFile = max(newestFile, modified)
            if isEntry {
                hasEntry = true
                lastUsed = modified
            }
        }
    }

    private(set) var groups: [String: Group] = [:]
    private(set) var total = 0

    /// Lists `directory` once, with each file's size and modification time.
    static func scan(_ directory: URL) -> CacheFolderIndex {
        var index = CacheFolderIndex()
        // Only the store's names are looked at (and only they cost a `stat`).
        let files = FolderListing.files(in: directory) { HTTPCacheStore.storeStem(of: $0) != nil }
        for file in files ?? [] {
            guard let stem = HTTPCacheStore.storeStem(of: file.name) else { continue }
            // Changed in place: a copy of the group would copy its set of files on every insertion.
            index.groups[stem, default: Group()].add(file.name, size: file.size, modified: file.modified,
                                                     isEntry: file.name.utf8.last == UInt8(ascii: "y"))
            index.total += file.size
        }
        return index
    }

    func group(_ stem: String) -> Group? { groups[stem] }

    mutating func set(_ stem: String, _ group: Group) {
        total += group.bytes - (groups[stem]?.bytes ?? 0)
        groups[stem] = group
    }

    @discardableResult
    mutating func remove(_ stem: String) -> Group? {
        guard let group = groups.removeValue(forKey: stem) else { return nil }
        total -= group.bytes
        return group
    }

    mutating func touch(_ stem: String, at date: Date) { groups[stem]?.lastUsed = date }

    /// The entries to remove so that the total fits `limit`: bodies left without an entry for longer
    /// than `orphanGrace` first, then least recently used entries, `newest` last of all.
    func evictions(limit: Int, keeping newest: String, now: Date, orphanGrace: TimeInterval) -> [String] {
        var remaining = total
        var chosen: [String] = []
        for (stem, group) in groups where !group.hasEntry && now.timeIntervalSince(group.newestFile) > orphanGrace {
            chosen.append(stem)
            remaining -= group.bytes
        }
        guard remaining > limit else { return chosen }
        let candidates = groups.filter { $0.value.hasEntry && $0.key != newest }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (stem, group) in candidates where remaining > limit {
            chosen.append(stem)
            remaining -= group.bytes
        }
        if remaining > limit, groups[newest] != nil { chosen.append(newest) }
        return chosen
    }
}

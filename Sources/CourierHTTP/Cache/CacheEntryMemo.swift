import CourierSecurity
import Foundation
import Synchronization

/// The entries this process decoded, each with the identity of the file it came from (`FileIdentity`: device,
/// inode, size, modification time). A lookup whose `lstat` still shows that identity reuses the decoded entry: a fresh hit
/// decoded its entry's JSON every time (about a third of a hit's 90 µs in `courier run --cache-mode`). Another
/// process's write renames a new file into place (a new inode), so it is read again; this store's own touch of
/// the modification time (the LRU clock) is recorded as it is made.
final class CacheEntryMemo: Sendable {
    private struct Kept {
        var identity: FileIdentity
        var entry: HTTPCacheEntry
    }

    /// At most this many entries are kept (inline bodies are at most the store's inline limit each).
    static let capacity = 128
    private let kept = Mutex<[String: Kept]>([:])

    /// The entry decoded from the file under `stem` when the file is still the one it came from.
    func entry(_ stem: String, identity: FileIdentity) -> HTTPCacheEntry? {
        kept.withLock { kept in kept[stem].flatMap { $0.identity == identity ? $0.entry : nil } }
    }

    func keep(_ entry: HTTPCacheEntry, stem: String, identity: FileIdentity) {
        kept.withLock { kept in
            if kept.count >= Self.capacity && kept[stem] == nil { kept.removeAll(keepingCapacity: true) }
            kept[stem] = Kept(identity: identity, entry: entry)
        }
    }

    /// Records that the file's modification time was set to `seconds`/`nanoseconds` by this store.
    func touched(_ stem: String, seconds: Int, nanoseconds: Int) {
        kept.withLock { kept in
            kept[stem]?.identity.seconds = seconds
            kept[stem]?.identity.nanoseconds = nanoseconds
        }
    }

    func forget(_ stem: String) {
        _ = kept.withLock { $0.removeValue(forKey: stem) }
    }
}

import Synchronization

/// The tree's rows as last built, reused while the collection, the folds and the filter stay the same.
///
/// With tens of thousands of requests, building the rows is the costliest part of a frame and of a key in
/// the tree; every frame and most keys ask for them with nothing changed. The cached rows are looked up by
/// what they are built from, so no caller has to say when they are stale: an unchanged collection shares
/// its arrays' storage with the cached copy, which makes the comparison a pointer check.
final class CollectionTreeRows: Sendable {
    /// What the rows were built from, and what was built.
    struct Entry: Sendable {
        var files: [CollectionFile]
        var problems: [Problem]
        var collapsed: Set<String>
        var query: String
        var rows: [CollectionTreeState.Row]
        /// The row of the request that best matches `query` (the first request without one).
        var bestMatch: Int?

        func isBuilt(from collection: Collection, collapsed: Set<String>, query: String) -> Bool {
            // Cheapest first; the arrays compare by identity before comparing elements.
            self.query == query && self.collapsed == collapsed && files == collection.files
                && problems == collection.problems
        }
    }

    private let last = Mutex<Entry?>(nil)

    /// The rows of `collection` with `collapsed` folded and `query` applied, built by `build` only when they
    /// differ from the last ones asked for.
    func entry(_ collection: Collection, collapsed: Set<String>, query: String,
               build: () -> (rows: [CollectionTreeState.Row], bestMatch: Int?)) -> Entry {
        if let cached = last.withLock({ $0 }), cached.isBuilt(from: collection, collapsed: collapsed, query: query) {
            return cached
        }
        let built = build()
        let entry = Entry(files: collection.files, problems: collection.problems, collapsed: collapsed, query: query,
                          rows: built.rows, bestMatch: built.bestMatch)
        last.withLock { $0 = entry }
        return entry
    }
}

/// The cache as a field of the tree's state: every copy of the state may share it, and it takes no part in
/// comparing or hashing states, since it only remembers what the other fields already determine.
struct CollectionTreeRowsField: Sendable, Hashable {
    let cache = CollectionTreeRows()

    static func == (a: Self, b: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

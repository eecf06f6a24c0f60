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
        /// Per file, the indexes of the requests `query` matched; nil without a query.
        var matched: [[Int]]?

        func isBuilt(from collection: Collection, collapsed: Set<String>, query: String) -> Bool {
            // Cheapest first; the arrays compare by identity before comparing elements.
            self.query == query && self.collapsed == collapsed && files == collection.files
                && problems == collection.problems
        }
    }

    private let last = Mutex<Entry?>(nil)

    /// What `build` returns: the rows, the best match's row, and per file the requests the query matched.
    typealias Built = (rows: [CollectionTreeState.Row], bestMatch: Int?, matched: [[Int]]?)

    /// The rows of `collection` with `collapsed` folded and `query` applied, built by `build` only when they
    /// differ from the last ones asked for. A query typed on from the last one is given the requests the
    /// last one matched (`build`'s argument), the only ones it can match, so each key of a filter over
    /// tens of thousands of requests ranks fewer of them.
    func entry(_ collection: Collection, collapsed: Set<String>, query: String,
               build: (_ candidates: [[Int]]?) -> Built) -> Entry {
        let cached = last.withLock { $0 }
        if let cached, cached.isBuilt(from: collection, collapsed: collapsed, query: query) { return cached }
        var candidates: [[Int]]?
        if let cached, let matched = cached.matched, Self.narrows(cached.query, to: query),
           cached.files == collection.files {
            candidates = matched
        }
        let built = build(candidates)
        let entry = Entry(files: collection.files, problems: collection.problems, collapsed: collapsed, query: query,
                          rows: built.rows, bestMatch: built.bestMatch, matched: built.matched)
        last.withLock { $0 = entry }
        return entry
    }

    /// Whether every request `query` matches is also matched by `previous`: the filter matches the query's
    /// characters in order, spaces and case aside (`FuzzyMatch.score`), so a query that extends the previous
    /// one can only lose matches.
    static func narrows(_ previous: String, to query: String) -> Bool {
        func needle(_ text: String) -> String { String(text.lowercased().filter { $0 != " " }) }
        return !previous.isEmpty && needle(query).hasPrefix(needle(previous))
    }
}

/// The cache as a field of the tree's state: every copy of the state may share it, and it takes no part in
/// comparing or hashing states, since it only remembers what the other fields already determine.
struct CollectionTreeRowsField: Sendable, Hashable {
    let cache = CollectionTreeRows()

    static func == (a: Self, b: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

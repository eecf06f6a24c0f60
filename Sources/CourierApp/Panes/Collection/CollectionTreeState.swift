import CourierCollections
import CourierTerminal

/// The collection pane: which folders are collapsed, the selected row, and the fuzzy filter.
public struct CollectionTreeState: Sendable, Hashable {
    /// One visible row of the tree.
    public struct Row: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// A folder or a file, by its key in `collapsed`.
            case group(key: String, isFile: Bool)
            case request(RequestRef)
            /// A request skipped for a malformed line, greyed: the index into `Collection.problems`.
            case problem(Int)
        }
        public var kind: Kind
        public var depth: Int
        public var label: String
        /// The method for request rows, for its colour.
        public var method: String?
        /// The kind of request rows (a WebSocket request shows `WS`).
        public var requestKind: RequestTemplate.Kind = .http
    }

    public var collapsed: Set<String> = []
    public var selection = 0
    public var scroll = 0
    public var filter = LineEditor()
    /// Typing goes into the filter.
    public var filtering = false

    public init() {}

    /// The rows shown for `collection`, with the filter applied: matching requests and the groups above them.
    public func rows(_ collection: Collection) -> [Row] {
        let query = filter.text
        var rows: [Row] = []
        var openedGroups: [String] = []
        for (fileIndex, file) in collection.files.enumerated() {
            _ = fileIndex
            let matches = Self.matches(query, in: file)
            // Requests skipped for an error stay visible, greyed, where their file is (not while filtering).
            let broken = query.isEmpty
                ? collection.problems.indices.filter { collection.problems[$0].file == file.path } : []
            if !query.isEmpty && matches.isEmpty { continue }
            // Groups: each folder on the path, then the file itself.
            var hidden = false
            for depth in file.displayPath.indices {
                let key = file.displayPath[...depth].joined(separator: "/")
                let isFile = depth == file.displayPath.count - 1
                if !openedGroups.contains(key) {
                    if !hidden {
                        rows.append(Row(kind: .group(key: key, isFile: isFile), depth: depth,
                                        label: file.displayPath[depth], method: nil))
                    }
                    openedGroups.append(key)
                }
                if query.isEmpty && collapsed.contains(key) { hidden = true }
            }
            if hidden { continue }
            for (index, request) in matches {
                rows.append(Row(kind: .request(RequestRef(file: file.path, index: index)),
                                depth: file.displayPath.count, label: request.name.isEmpty ? request.url : request.name,
                                method: request.method, requestKind: request.kind))
            }
            for index in broken {
                let problem = collection.problems[index]
                rows.append(Row(kind: .problem(index), depth: file.displayPath.count,
                                label: "✗ " + (problem.line.map { "line \($0): " } ?? "") + problem.message, method: nil))
            }
        }
        return rows
    }

    /// A file's requests that match `query`, best first (ties keep the file's order); all of them in order
    /// when there is no query.
    static func matches(_ query: String, in file: CollectionFile) -> [(Int, RequestDraft)] {
        let all: [(Int, RequestDraft)] = file.requests.enumerated().map { ($0.offset, $0.element) }
        guard !query.isEmpty else { return all }
        var ranked: [(index: Int, request: RequestDraft, tier: Int, score: Int)] = []
        for (index, request) in all {
            guard let rank = FuzzyMatch.rank(query, name: request.name, method: request.methodLabel,
                                             url: request.url) else { continue }
            ranked.append((index, request, rank.tier, rank.score))
        }
        ranked.sort { a, b in
            if a.tier != b.tier { return a.tier > b.tier }
            if a.score != b.score { return a.score > b.score }
            return a.index < b.index
        }
        return ranked.map { ($0.index, $0.request) }
    }

    /// The row of the request that best matches the filter, across every file (nil without a match).
    public func bestMatchRow(_ collection: Collection) -> Int? {
        let query = filter.text
        let rows = rows(collection)
        var best: (row: Int, tier: Int, score: Int)?
        for (position, row) in rows.enumerated() {
            guard case .request(let ref) = row.kind, let request = collection.request(ref) else { continue }
            let ranked: (tier: Int, score: Int)? = query.isEmpty ? (0, 0)
                : FuzzyMatch.rank(query, name: request.name, method: request.methodLabel, url: request.url)
            guard let rank = ranked else { continue }
            if let current = best, (current.tier, current.score) >= (rank.tier, rank.score) { continue }
            best = (position, rank.tier, rank.score)
        }
        return best?.row
    }

    /// The selected row, clamped to what is visible.
    public func selectedRow(_ collection: Collection) -> Row? {
        let all = rows(collection)
        guard !all.isEmpty else { return nil }
        return all[min(max(selection, 0), all.count - 1)]
    }

    /// Moves the selection by `delta` rows, staying inside the list.
    public mutating func move(_ delta: Int, in collection: Collection) {
        let count = rows(collection).count
        selection = count == 0 ? 0 : min(max(selection + delta, 0), count - 1)
    }

    /// Selects the row of a request, when it is visible.
    public mutating func select(_ ref: RequestRef, in collection: Collection) {
        if let index = rows(collection).firstIndex(where: { $0.kind == .request(ref) }) { selection = index }
    }

    /// Keeps the selection on screen in a list `height` rows tall.
    public mutating func scrollToSelection(height: Int) {
        guard height > 0 else { return }
        if selection < scroll { scroll = selection }
        if selection >= scroll + height { scroll = selection - height + 1 }
    }
}

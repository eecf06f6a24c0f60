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

    /// The rows built last, shared by copies of this state (see `CollectionTreeRows`).
    private var built = CollectionTreeRowsField()

    /// The rows shown for `collection`, with the filter applied: matching requests and the groups above them.
    /// Built once per change of the collection, the folds or the filter, then reused.
    public func rows(_ collection: Collection) -> [Row] { entry(collection).rows }

    /// The row of the request that best matches the filter, across every file (nil without a match); the
    /// first request when there is no filter.
    public func bestMatchRow(_ collection: Collection) -> Int? { entry(collection).bestMatch }

    private func entry(_ collection: Collection) -> CollectionTreeRows.Entry {
        let query = filter.text
        return built.cache.entry(collection, collapsed: collapsed, query: query) { candidates in
            Self.buildRows(collection, collapsed: collapsed, query: query, candidates: candidates)
        }
    }

    /// Builds the rows and finds the best match in one pass over the collection; with `candidates` (per file,
    /// the requests a query this one extends matched), only those are ranked.
    static func buildRows(_ collection: Collection, collapsed: Set<String>, query: String,
                          candidates: [[Int]]? = nil) -> CollectionTreeRows.Built {
        var rows: [Row] = []
        var matched: [[Int]] = []
        var best: (row: Int, tier: Int, score: Int)?
        var openedGroups = Set<String>()
        // Requests skipped for an error stay visible, greyed, where their file is (not while filtering).
        var broken: [String: [Int]] = [:]
        if query.isEmpty {
            for (index, problem) in collection.problems.enumerated() {
                if let file = problem.file { broken[file, default: []].append(index) }
            }
        }
        for (fileIndex, file) in collection.files.enumerated() {
            let matches = Self.matches(query, in: file, among: candidates?[fileIndex])
            if !query.isEmpty { matched.append(matches.map(\.index).sorted()) }
            if !query.isEmpty && matches.isEmpty { continue }
            // Groups: each folder on the path, then the file itself.
            var hidden = false
            for depth in file.displayPath.indices {
                let key = file.displayPath[...depth].joined(separator: "/")
                let isFile = depth == file.displayPath.count - 1
                if openedGroups.insert(key).inserted && !hidden {
                    rows.append(Row(kind: .group(key: key, isFile: isFile), depth: depth,
                                    label: file.displayPath[depth], method: nil))
                }
                if query.isEmpty && collapsed.contains(key) { hidden = true }
            }
            if hidden { continue }
            // A file's matches come best first, so its first one is the only candidate for the best overall;
            // a tie keeps the earlier row.
            if let first = matches.first, best.map({ ($0.tier, $0.score) < (first.tier, first.score) }) ?? true {
                best = (rows.count, first.tier, first.score)
            }
            let depth = file.displayPath.count
            for match in matches {
                // Read in place: a copy of the whole request per row is most of a 20,000-row build.
                let name = file.requests[match.index].name
                rows.append(Row(kind: .request(RequestRef(file: file.path, index: match.index)), depth: depth,
                                label: name.isEmpty ? Self.unnamedLabel(file.requests[match.index].url) : name,
                                method: file.requests[match.index].method,
                                requestKind: file.requests[match.index].kind))
            }
            for index in broken[file.path] ?? [] {
                let problem = collection.problems[index]
                rows.append(Row(kind: .problem(index), depth: file.displayPath.count,
                                label: "✗ " + (problem.line.map { "line \($0): " } ?? "") + problem.message, method: nil))
            }
        }
        return (rows, best?.row, query.isEmpty ? nil : matched)
    }

    /// The indexes of a file's requests (of `candidates`, when given) that match `query` with their rank, best
    /// first (ties keep the file's order); all of them in order, ranked alike, when there is no query.
    static func matches(_ query: String, in file: CollectionFile,
                        among candidates: [Int]? = nil) -> [(index: Int, tier: Int, score: Int)] {
        guard !query.isEmpty else { return file.requests.indices.map { ($0, 0, 0) } }
        var ranked: [(index: Int, tier: Int, score: Int)] = []
        let prepared = FuzzyMatch.RequestQuery(query)
        for index in candidates ?? Array(file.requests.indices) {
            guard let rank = prepared.rank(name: file.requests[index].name, method: file.requests[index].methodLabel,
                                           url: file.requests[index].url) else { continue }
            ranked.append((index, rank.tier, rank.score))
        }
        ranked.sort { a, b in
            if a.tier != b.tier { return a.tier > b.tier }
            if a.score != b.score { return a.score > b.score }
            return a.index < b.index
        }
        return ranked
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

extension CollectionTreeState {
    /// How an unnamed request reads in the tree: its URL, the scheme and host of a literal one left out
    /// (`/anything?page=4`), since the rows of a file mostly share them and a narrow tree cut every row to the
    /// same `https://httpbin.org…`; the status bar shows the host of the selected one.
    static func unnamedLabel(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), !url[..<scheme.lowerBound].contains("{") else { return url }
        let rest = url[scheme.upperBound...]
        guard let path = rest.firstIndex(where: { $0 == "/" || $0 == "?" }), path != rest.startIndex else { return url }
        return String(rest[path...])
    }
}

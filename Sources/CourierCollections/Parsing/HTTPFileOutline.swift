import Foundation

/// A `.http` file read to run a few of its requests. One pass over the bytes finds every block between
/// `###` lines and parses it on its own, keeping only the request's name and byte offsets (its ordinal is
/// its place among the entries); a request's full template is parsed again from those bytes when it is asked for. Running one request of
/// a file holding a million then costs about the file's size in memory, where the full parse (`HTTPFile`)
/// keeps every template, layout and line. Blocks are parsed by the same parser with the same context
/// (the line above a `###`, whether it is the file's first block, the ordinals before it), so a template
/// read here equals the one the full parse gives.
public struct HTTPFileOutline: Sendable {
    /// Where one request sits in the file, and what choosing requests needs without parsing it again.
    /// Kept small: a file may hold millions.
    public struct Entry: Sendable, Hashable {
        /// From `# @name` or the text after `###`, as in `RequestTemplate.name`.
        public var name: String?
        /// The bytes parsed for this block: from the last non-blank line before it (which may name it)
        /// to the next `###` line.
        var start: Int
        var end: Int
        /// The 0-based file line of `start`.
        var firstLine: Int
        /// How many lines after `firstLine` the block itself starts.
        var blockOffset: Int
        var isFirst: Bool
        /// Whether the request has scripts (which may set variables that other requests use).
        public var hasScripts: Bool
        /// Which request of its block this is: httpyac starts a request at a request line without `###`.
        var indexInBlock = 0
        /// How many requests the blocks before this one hold (kulala's `NOP` placeholders included): the
        /// base of the block's ordinals.
        var ordinalOffset = 0
        /// The names of the requests its `# @ref` lines run first.
        public var references: [String] = []
    }

    /// The path the file was read from, as the user named it.
    public let path: String
    /// The file's bytes; read, not mapped, so another program truncating the file cannot crash a run.
    public let data: Data
    /// httpyac's `# @forceRegionDelimiter` stands in the file (read once, for every block's parse).
    let forcesRegionDelimiter: Bool
    public private(set) var entries: [Entry] = []
    /// `@name = value` lines outside any request, in order.
    public private(set) var fileVariables: [VariableDefinition] = []
    /// Errors and warnings, as the full parse reports them.
    public private(set) var diagnostics: [Diagnostic] = []
    /// `import ./other.http` lines, as the full parse reads them.
    public private(set) var imports: [FileImport] = []
    /// httpyac's file-wide scripts and GraphQL fragments, as the full parse reads them.
    public private(set) var fileScripts: [RequestScript] = []
    public private(set) var graphQLFragments: [String: String] = [:]

    /// Reads `url` and outlines it; throws when the file cannot be read or is not UTF-8.
    public static func load(_ url: URL, displayPath: String) throws(CollectionError) -> HTTPFileOutline {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(path: displayPath, reason: error.localizedDescription)
        }
        try ForeignCollectionFormat.refuse(data, of: url, path: displayPath)
        return try HTTPFileOutline(path: displayPath, data: data)
    }

    /// Outlines bytes already read.
    public init(path: String, data: Data) throws(CollectionError) {
        self.path = path
        self.data = data
        forcesRegionDelimiter = data.range(of: Data(HTTPFileParser.forceRegionDelimiterTag.utf8)) != nil
        // A UTF-8 byte order mark is not part of the text, as when the full parse decodes the file.
        let bomLength = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Room for every block at once: growing the array by doubling would hold two copies for a moment.
        entries.reserveCapacity(BlockScanner.prefix(of: data, blocks: .max).count)
        var scanner = BlockScanner()
        var pending: BlockScanner.Block?
        var isFirst = true
        while true {
            let next = data.withUnsafeBytes { scanner.next($0.bindMemory(to: UInt8.self)) }
            if let block = pending {
                let lower = max(block.context, bomLength)
                try read(Entry(name: nil, start: lower, end: max(lower, next?.start ?? data.count),
                               firstLine: block.contextLine, blockOffset: block.startLine - block.contextLine,
                               isFirst: isFirst, hasScripts: false))
                isFirst = false
            }
            guard let next else { break }
            pending = next
        }
        diagnostics += placeholderDiagnostics
    }

    /// Parses one block, recording its request (if it has one), its file variables and its diagnostics.
    private mutating func read(_ block: Entry) throws(CollectionError) {
        let parser = try parse(block, ordinalOffset: requestsParsed)
        diagnostics += parser.diagnostics
        fileVariables += parser.fileVariables
        imports += parser.imports
        fileScripts += parser.fileScripts
        graphQLFragments.merge(parser.graphQLFragments) { $1 }
        let ordinalOffset = requestsParsed
        for (position, request) in parser.requests.enumerated() {
            let isFilesFirst = requestsParsed == 0
            requestsParsed += 1
            if isFilesFirst { startsWithSharedBlock = HTTPFileParser.sharedBlockNames.contains(request.name ?? "") }
            // As the full parse does: a leading shared `NOP` block is no request; one anywhere else is an error.
            if request.url == HTTPFileParser.noRequestPlaceholder {
                if !(isFilesFirst && startsWithSharedBlock) {
                    let line = parser.fileLine(parser.layouts[position].requestLine.lowerBound)
                    placeholderDiagnostics.insert(Diagnostic(file: path, line: line,
                                                             message: HTTPFileParser.misplacedPlaceholder), at: 0)
                }
                continue
            }
            var entry = block
            entry.ordinalOffset = ordinalOffset
            entry.name = request.name
            entry.hasScripts = !request.scripts.isEmpty
            entry.indexInBlock = position
            entry.references = request.references.map(\.name)
            entries.append(entry)
        }
    }

    private func parse(_ entry: Entry, ordinalOffset: Int) throws(CollectionError) -> HTTPFileParser {
        let decoded = data.withUnsafeBytes { raw in
            String(validating: UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[entry.start..<entry.end]),
                   as: UTF8.self)
        }
        guard let text = decoded else {
            throw .unreadable(path: path, reason: "not valid UTF-8")
        }
        let lines = SourceLines.split(text)
        var parser = HTTPFileParser(path: path, lines: lines, lineOffset: entry.firstLine,
                                    ordinalOffset: ordinalOffset)
        parser.forcesRegionDelimiter = forcesRegionDelimiter
        parser.parseBlock(min(entry.blockOffset, lines.count)..<lines.count, isFirst: entry.isFirst)
        return parser
    }

    /// Whether the file starts with kulala's `### Shared` block, which changes every request after it: such a
    /// file is read whole to run any of its requests.
    public private(set) var startsWithSharedBlock = false
    /// Every request the blocks' parses found so far, `NOP` placeholders included.
    private var requestsParsed = 0
    /// Misplaced `NOP` placeholders, last first: the full parse reports them after every block's diagnostics.
    private var placeholderDiagnostics: [Diagnostic] = []

    /// The full template of the request at `index` in `entries`, equal to the one the full parse gives.
    public func template(at index: Int) throws(CollectionError) -> RequestTemplate {
        // The same bytes parsed to a request when the outline was made, so this finds it again.
        let entry = entries[index]
        let requests = try parse(entry, ordinalOffset: entry.ordinalOffset).requests
        guard requests.indices.contains(entry.indexInBlock) else {
            throw .requestNotFound(id: "\(path)#\(index + 1)")
        }
        return HttpyacInput.addingPrompts(to: requests[entry.indexInBlock], fileVariables: fileVariables)
    }

    /// Every name of a named request, in file order.
    public var names: [String] { entries.compactMap(\.name) }

    /// A file holding only `requests` (with their ordinals and lines in this file), the file variables and
    /// the diagnostics: what running them needs. It cannot be edited: there are no lines to rewrite.
    public func file(running requests: [RequestTemplate]) -> HTTPFile {
        HTTPFile(path: path, text: "", requests: requests, fileVariables: fileVariables, diagnostics: diagnostics,
                 layouts: [], lines: [], imports: imports, fileScripts: fileScripts, graphQLFragments: graphQLFragments)
    }
}

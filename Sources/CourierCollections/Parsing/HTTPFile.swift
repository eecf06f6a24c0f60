import CourierMessage
import Foundation

/// One parsed `.http` file: its exact text, its requests and what was wrong with it.
/// The text is kept so that an edit rewrites only the lines of the request that changed.
public struct HTTPFile: Sendable, Hashable {
    /// The path the file was read from, as the user named it (used in IDs and diagnostics).
    public var path: String
    /// The exact text read.
    public var text: String
    public var requests: [RequestTemplate]
    /// `@name = value` lines outside any request, in order.
    public var fileVariables: [VariableDefinition]
    /// Errors (the affected request was skipped) and warnings (kept, e.g. scripts Courier does not run).
    public var diagnostics: [Diagnostic]
    /// `import ./other.http` lines, in order: files whose requests `run #name` may name.
    public var imports: [FileImport] = []
    /// httpyac's file-wide scripts: `{{ }}` blocks in blocks without a request, and `{{+ }}` blocks anywhere.
    public var fileScripts: [RequestScript] = []
    /// httpyac's GraphQL fragments (`fragment Parts on Repository { … }` outside a request), by name: a query
    /// using `...Parts` is sent with the fragment.
    public var graphQLFragments: [String: String] = [:]
    /// Whether the text reads httpyac's last response (`{{response.parsedBody.id}}`): only then is every
    /// response kept for the next request (`ResponseStore.recordLast`).
    public var readsLastResponse = false
    /// Where each section of each request sits in `lines`, parallel to `requests`.
    var layouts: [RequestLayout]
    var lines: [SourceLine]

    /// Parses text; never throws: problems become diagnostics.
    public init(path: String, text: String) {
        self = HTTPFileParser(path: path, text: text).parse()
    }

    init(path: String, text: String, requests: [RequestTemplate], fileVariables: [VariableDefinition],
         diagnostics: [Diagnostic], layouts: [RequestLayout], lines: [SourceLine], imports: [FileImport] = [],
         fileScripts: [RequestScript] = [], graphQLFragments: [String: String] = [:]) {
        self.imports = imports
        self.fileScripts = fileScripts
        self.graphQLFragments = graphQLFragments
        self.path = path
        self.text = text
        self.requests = requests
        self.fileVariables = fileVariables
        self.diagnostics = diagnostics
        self.layouts = layouts
        self.lines = lines
        // A byte check first: most files name no variable at all, and Foundation's search is slow on a long file.
        self.readsLastResponse = Interpolator.holdsPair(UInt8(ascii: "{"), text.utf8)
            && (text.contains("{{response") || text.contains("{{ response") || text.contains("{{$xpath "))
    }

    /// Whether sending `request` runs any script: its own, or the file's.
    public func hasScripts(_ request: RequestTemplate) -> Bool { !request.scripts.isEmpty || !fileScripts.isEmpty }

    /// The request with this ID, if the file still has it.
    public func request(_ id: RequestTemplateID) -> RequestTemplate? { requests.first { $0.id == id } }

    /// The line ending the file mostly uses; new lines get the same.
    public var lineEnding: String { SourceLines.dominantEnding(lines) }

    func layoutIndex(of request: RequestTemplate) throws(CollectionError) -> Int {
        // A file made from an outline holds no layouts (no lines to rewrite): nothing in it can be edited.
        guard let index = requests.firstIndex(where: { $0.id == request.id }), index < layouts.count else {
            throw .requestNotFound(id: request.id.description)
        }
        return index
    }
}

/// Line ranges (0-based, half-open, into `HTTPFile.lines`) of the sections of one request.
struct RequestLayout: Sendable, Hashable {
    /// The whole block, from its `###` line (if any) to the next `###`.
    var block: Range<Int>
    var separator: Int?
    /// Whether the request's name came from the `###` line rather than `# @name`.
    var nameFromSeparator: Bool
    /// Comments, tags, variables and pre-request scripts before the request line.
    var prelude: Range<Int>
    var nameLine: Int?
    /// Lines of request-local `@var` definitions and `# @tag` lines (other than the name).
    var variableLines: [Int]
    var tagLines: [Int]
    var requestLine: Range<Int>
    var headers: Range<Int>
    /// The body (or WebSocket messages), after the blank line that ends the headers.
    var body: Range<Int>
    /// Response handlers and trailing blank lines, kept as they are.
    var tail: Range<Int>
    /// The headers and tags kulala's shared block lent the request: left out when the request is written.
    var lentHeaders: [HTTPHeaders.Field] = []
    var lentTags: [String: String] = [:]
}

extension HTTPFile {
    /// Looks `name` up among the `@name = value` lines of the file's other requests: the nearest one above
    /// `template` (the last written), else the first below. Used only for names no other source defines, so
    /// a REST Client file, where every such line is a file variable, runs as written; searched on demand,
    /// never per request.
    func definitionElsewhere(than template: RequestTemplate) -> (String) -> VariableDefinition? {
        let requests = self.requests
        let ordinal = template.id.ordinal
        return { name in
            // httpyac's `@name = value` after a request line counts too: `courier check`, or a request run
            // without the one that sets it, still finds what the name stands for. The nearest above wins, then
            // the nearest below; templates are read in place (a copy of each would cost the file's size).
            for index in requests.indices.reversed() where requests[index].id.ordinal < ordinal {
                if let found = requests[index].responseVariables.last(where: { $0.name == name })
                    ?? requests[index].variables.last(where: { $0.name == name }) { return found }
            }
            for index in requests.indices where requests[index].id.ordinal > ordinal {
                if let found = requests[index].variables.first(where: { $0.name == name })
                    ?? requests[index].responseVariables.first(where: { $0.name == name }) { return found }
            }
            return nil
        }
    }
}

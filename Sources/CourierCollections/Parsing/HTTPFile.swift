import CourierMessage
import Foundation

/// One parsed `.http` file: its exact text, its requests and what was wrong with it.
/// The text is kept so that an edit rewrites only the lines of the request that changed.
public struct HTTPFile: Sendable, Hashable {
    /// The fields, behind one reference (`CopyOnWrite`): a file goes into every runner, sender, resolver and
    /// step of a run, and each of those per-request copies retained every field.
    private struct Fields: Sendable, Hashable {
        var path: String
        var text: String
        var requests: [RequestTemplate]
        var fileVariables: [VariableDefinition]
        var diagnostics: [Diagnostic]
        var imports: [FileImport]
        var fileScripts: [RequestScript]
        var graphQLFragments: [String: String]
        var readsLastResponse: Bool
        var layouts: [RequestLayout]
        var lines: [SourceLine]
    }

    private var fields: CopyOnWrite<Fields>

    public static func == (lhs: HTTPFile, rhs: HTTPFile) -> Bool {
        lhs.fields.sharesStorage(with: rhs.fields) || lhs.fields.value == rhs.fields.value
    }

    public func hash(into hasher: inout Hasher) { fields.value.hash(into: &hasher) }

    /// The path the file was read from, as the user named it (used in IDs and diagnostics).
    public var path: String {
        get { fields.value.path }
        _modify { yield &fields.value.path }
    }
    /// The exact text read.
    public var text: String {
        get { fields.value.text }
        _modify { yield &fields.value.text }
    }
    public var requests: [RequestTemplate] {
        get { fields.value.requests }
        _modify { yield &fields.value.requests }
    }
    /// `@name = value` lines outside any request, in order.
    public var fileVariables: [VariableDefinition] {
        get { fields.value.fileVariables }
        _modify { yield &fields.value.fileVariables }
    }
    /// Errors (the affected request was skipped) and warnings (kept, e.g. scripts Courier does not run).
    public var diagnostics: [Diagnostic] {
        get { fields.value.diagnostics }
        _modify { yield &fields.value.diagnostics }
    }
    /// `import ./other.http` lines, in order: files whose requests `run #name` may name.
    public var imports: [FileImport] {
        get { fields.value.imports }
        _modify { yield &fields.value.imports }
    }
    /// httpyac's file-wide scripts: `{{ }}` blocks in blocks without a request, and `{{+ }}` blocks anywhere.
    public var fileScripts: [RequestScript] {
        get { fields.value.fileScripts }
        _modify { yield &fields.value.fileScripts }
    }
    /// httpyac's GraphQL fragments (`fragment Parts on Repository { … }` outside a request), by name: a query
    /// using `...Parts` is sent with the fragment.
    public var graphQLFragments: [String: String] {
        get { fields.value.graphQLFragments }
        _modify { yield &fields.value.graphQLFragments }
    }
    /// Whether the text reads httpyac's last response (`{{response.parsedBody.id}}`): only then is every
    /// response kept for the next request (`ResponseStore.recordLast`).
    public var readsLastResponse: Bool {
        get { fields.value.readsLastResponse }
        _modify { yield &fields.value.readsLastResponse }
    }
    /// Where each section of each request sits in `lines`, parallel to `requests`.
    var layouts: [RequestLayout] {
        get { fields.value.layouts }
        _modify { yield &fields.value.layouts }
    }
    var lines: [SourceLine] {
        get { fields.value.lines }
        _modify { yield &fields.value.lines }
    }

    /// Parses text; never throws: problems become diagnostics.
    public init(path: String, text: String) {
        self = HTTPFileParser(path: path, text: text).parse()
    }

    init(path: String, text: String, requests: [RequestTemplate], fileVariables: [VariableDefinition],
         diagnostics: [Diagnostic], layouts: [RequestLayout], lines: [SourceLine], imports: [FileImport] = [],
         fileScripts: [RequestScript] = [], graphQLFragments: [String: String] = [:]) {
        // A byte check first: most files name no variable at all, and Foundation's search is slow on a long file.
        let readsLastResponse = Interpolator.holdsPair(UInt8(ascii: "{"), text.utf8)
            && (text.contains("{{response") || text.contains("{{ response") || text.contains("{{$xpath "))
        fields = CopyOnWrite(Fields(path: path, text: text, requests: requests, fileVariables: fileVariables,
                                    diagnostics: diagnostics, imports: imports, fileScripts: fileScripts,
                                    graphQLFragments: graphQLFragments, readsLastResponse: readsLastResponse,
                                    layouts: layouts, lines: lines))
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
